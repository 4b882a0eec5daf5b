"""Validates Lottie files against the official Lottie JSON schema shipped by
the `lottie-specs` PyPI package (lottie_specs/data/lottie.schema.json), with
the `jsonschema` package. Prints one JSON line per file:
{"file": ..., "errors": ["path: message", ...]} and exits 0 (tests/lottie.rs
reads the lines)."""
import json
import sys
from importlib import resources

import jsonschema

schema = json.loads(resources.files("lottie_specs").joinpath("data/lottie.schema.json").read_text())
cls = jsonschema.validators.validator_for(schema)
validator = cls(schema)
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    errors = []
    for e in sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in e.absolute_path)
        errors.append("%s: %s" % (where, e.message[:300]))
        if len(errors) >= 20:
            break
    print(json.dumps({"file": path, "errors": errors}))
