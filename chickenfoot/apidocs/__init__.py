"""The OpenAPI declarations of the views beside this package: one module per views
module, of the same name, holding the parameters, examples, responses and descriptions its
``extend_schema`` calls name."""
