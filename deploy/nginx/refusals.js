// What nginx refuses itself, and how it says so (chickenfoot.conf.template).
//
// refusal: what nginx passes on but the API server (granian) refuses before the application,
// with an empty answer; nginx refuses it first ($chickenfoot_refusal). "400": a control
// character (other than tab) or DEL in a header's value, or a byte outside printable ASCII in
// the request target; "431": more header fields than MAX_FIELDS (granian takes 100, nginx adds
// four of its own); "": neither.
//
// problem: the problem document of a /_problems/ location, in the language the client asks for
// (language), from problem_texts.js (written by `make messages` from the message catalogs).
import texts from 'problem_texts.js';

var MAX_FIELDS = 64;
var CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
var TARGET = /[^\x21-\x7e]/;
var PREFIX = '/_problems/';

function refusal(r) {
    // the fields as the client sent them: [name, value] pairs
    var fields = r.rawHeadersIn;
    if (fields.length > MAX_FIELDS) {
        return "431";
    }
    for (var i = 0; i < fields.length; i++) {
        if (CONTROL.test(fields[i][1])) {
            return "400";
        }
    }
    if (TARGET.test(r.variables.request_uri)) {
        return "400";
    }
    return "";
}

// The service's language for a language range of Accept-Language ("lo", "lo-LA", "TH"), or
// null: the range itself, else its base language.
function supported(range) {
    var tag = range.toLowerCase();
    if (texts.languages.indexOf(tag) >= 0) {
        return tag;
    }
    var base = tag.split('-')[0];
    return texts.languages.indexOf(base) >= 0 ? base : null;
}

// As Django's LocaleMiddleware for a request with no player (nginx knows none): the ranges of
// Accept-Language by quality, highest first (equal ones in the order sent), the first the
// service speaks; "*", or none spoken, is the fallback (English).
function language(r) {
    var header = r.headersIn['Accept-Language'] || '';
    var ranges = [];
    var items = header.split(',');
    for (var i = 0; i < items.length; i++) {
        var parts = items[i].split(';');
        var range = parts[0].trim();
        var quality = 1;
        for (var j = 1; j < parts.length; j++) {
            var parameter = parts[j].trim().toLowerCase();
            if (parameter.indexOf('q=') === 0) {
                quality = Number(parameter.slice(2));
            }
        }
        if (range && quality > 0 && quality <= 1) {
            ranges.push({range: range, quality: quality, order: i});
        }
    }
    ranges.sort(function (a, b) { return b.quality - a.quality || a.order - b.order; });
    for (var k = 0; k < ranges.length; k++) {
        if (ranges[k].range === '*') {
            break;
        }
        var code = supported(ranges[k].range);
        if (code) {
            return code;
        }
    }
    return texts.fallback;
}

function problem(r) {
    var found = texts.problems[r.uri.slice(PREFIX.length)];
    var code = language(r);
    r.headersOut['Content-Type'] = 'application/problem+json';
    r.headersOut['Content-Language'] = code;
    r.headersOut['Vary'] = 'Accept-Language';
    r.return(found.status, found.bodies[code]);
}

export default { refusal, problem };
