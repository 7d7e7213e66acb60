// What nginx itself passes on but the API server (granian) refuses before the application,
// with an empty answer: nginx refuses it first, as a problem document (chickenfoot.conf.template,
// $chickenfoot_refusal). "400": a control character (other than tab) or DEL in a header's
// value, or a byte outside printable ASCII in the request target; "431": more header fields
// than MAX_FIELDS (granian takes 100, nginx adds four of its own); "": neither.
var MAX_FIELDS = 64;
var CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
var TARGET = /[^\x21-\x7e]/;

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

export default { refusal };
