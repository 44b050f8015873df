#!/bin/sh
# Known-answer vectors for X-Platform-Signature, computed outside the project with OpenSSL:
# the hex HMAC-SHA256 of each file in bodies/ (its exact bytes, read from stdin) under each key.
# Regenerate with:
#   cd test/webhooks/vectors && sh make-vectors.sh > vectors.tsv
# Columns (tab-separated): body file, key, hex signature. The last key is 100 "x"s: longer
# than SHA-256's 64-byte block, so HMAC hashes it first.
set -eu
long=$(printf 'x%.0s' $(seq 1 100))
for key in 'sandbox-demo-secret' 'whsec-test' 'k3y with spaces & $ymbols' "$long"; do
  for body in bodies/*; do
    hex=$(openssl dgst -sha256 -hmac "$key" < "$body" | awk '{print $NF}')
    printf '%s\t%s\t%s\n' "$(basename "$body")" "$key" "$hex"
  done
done
