"""The service's languages: their codes and names, and the catalogs (extracted and compiled)."""
