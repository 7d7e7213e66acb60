"""The games HTTP API: one view per operation (validate -> service or selector -> serialise)."""
