#!/bin/sh
# Writes the allow/deny rules of nginx's /admin/ location (deploy/nginx/chickenfoot.conf.template)
# from ADMIN_ALLOW_NETWORKS: addresses or CIDR networks, separated by commas or spaces
# ("10.0.0.0/8, 192.168.1.0/24, 2001:db8::/32"). Unset or empty: everyone may reach it.
# The nginx image's entrypoint runs it before rendering the templates (docker-compose.yml mounts
# it in /docker-entrypoint.d/); it writes the file NGINX_ADMIN_ALLOW names. Anything that is not
# an address or network stops nginx from starting instead of letting everyone in.
set -eu
out="${NGINX_ADMIN_ALLOW:?NGINX_ADMIN_ALLOW names the file to write}"
networks=$(printf '%s' "${ADMIN_ALLOW_NETWORKS:-}" | tr ',\n\t' '   ')
rules=""
for network in $networks; do
    case "$network" in
        *[!0-9A-Fa-f.:/]*)
            echo "admin-networks.sh: ADMIN_ALLOW_NETWORKS: not an address or network: $network" >&2
            exit 1
            ;;
    esac
    rules="${rules}allow ${network};
"
done
if [ -z "$rules" ]; then
    rules="allow all;
"
else
    rules="${rules}deny all;
"
fi
printf '# Written by admin-networks.sh from ADMIN_ALLOW_NETWORKS.\n%s' "$rules" > "$out.tmp"
mv "$out.tmp" "$out"
