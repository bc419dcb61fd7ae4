#!/usr/bin/env bash
# Formats every Swift file of the package in place under the committed .swift-format, then lints strictly as CI does.
# Run it before committing: CI fails on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Package.swift Fuzz)
swift format format --in-place --recursive --parallel "${paths[@]}"
swift format lint --strict --recursive "${paths[@]}"
