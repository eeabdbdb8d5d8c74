#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Small replicate runs and evidence bundles for `candle-trace compare` (docs/COMPARISON.md).

    make_bundle.py run OUT.jsonl --run-id ID --duration-ns N [options]
        Writes a minimal trace/10 run: the meta record (production-equivalent scope, a
        comparison identity unless --no-identity), one measured root span of N ns, optional
        tensor_stats records and a terminal record.
    make_bundle.py bundle DIR TRACE [--extra NAME=TEXT]... [--run-id ID]
        Builds the bundle directory DIR (which must not exist): TRACE copied to
        DIR/trace.jsonl, every --extra file (NAME may hold '/'), and DIR/bundle.json, the
        candle-graph/bundle/1 manifest listing each file with its size and SHA-256, laid out
        as upstream writes it (serde_json pretty, files sorted by path, trailing newline).
        The manifest's run_id is the trace's run_id unless --run-id is given.

Python 3 standard library only; the output depends only on the arguments.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys


def write_run(args):
    identity = None
    if not args.no_identity:
        identity = {}
        if args.implementation_id is not None:
            identity["implementation_id"] = args.implementation_id
        identity.update({
            "workload_id": args.workload_id, "model_id": "m1", "config_id": "c1", "data_id": "d1",
            "seed_policy": "fixed", "physical_batch": args.physical_batch, "accumulation_steps": 1,
            "precision": "f32", "device_state": "exclusive",
        })
        if args.pair_id is not None:
            identity["pair_id"] = args.pair_id
    meta = {
        "kind": "meta", "schema": "candle-graph/trace/10", "run_id": args.run_id,
        "correlation_id": args.run_id, "entrypoint": args.entrypoint, "phase": "infer",
        "timestamp": "2026-08-19T00:00:00Z", "capture_step": 6, "warmup_steps": 5,
        "device": args.device, "measured_region_device_synchronized": args.synchronized,
        "timing_mode": "host",
        "capture_contract": {
            "measurement_scope": args.scope, "operations": "none", "tensors": "none",
            "gradients": "none", "logical_memory": "none", "physical_memory": "none",
            "device_timing": "none", "required_semantic_labels": [],
        },
    }
    if identity is not None:
        meta["comparison_identity"] = identity
    meta["tags"] = {}
    records = [meta,
               {"kind": "span_start", "id": "root", "name": "infer", "start_ns": 0,
                "span_kind": "function", "measured": not args.unmeasured}]
    for spec in args.tensor_stats:
        label, rms, abs_max, non_finite = spec.split(",")
        records.append({"kind": "tensor_stats", "span_id": "root", "label": label, "shape": [4],
                        "dtype": "f32", "elements": 4, "non_finite": int(non_finite),
                        "rms": float(rms), "abs_max": float(abs_max), "mean": 0.0})
    if not args.open:
        records.append({"kind": "span_end", "id": "root", "duration_ns": args.duration_ns})
    terminal = {"kind": "terminal", "outcome": args.outcome, "timestamp_ns": args.duration_ns}
    if args.outcome == "failed":
        terminal["reason"] = "stopped"
    records.append(terminal)
    with open(args.out, "w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n")


def describe(root, relative):
    with open(os.path.join(root, relative), "rb") as f:
        data = f.read()
    return {"path": relative, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def write_bundle(args):
    if os.path.exists(args.dir):
        sys.exit(f"make_bundle.py: {args.dir} exists")
    os.makedirs(args.dir)
    shutil.copyfile(args.trace, os.path.join(args.dir, "trace.jsonl"))
    files = ["trace.jsonl"]
    for extra in args.extra:
        name, _, text = extra.partition("=")
        path = os.path.join(args.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        files.append(name)
    run_id = args.run_id
    if run_id is None:
        with open(args.trace, encoding="utf-8") as f:
            run_id = json.loads(f.readline())["run_id"]
    manifest = {"schema": "candle-graph/bundle/1", "run_id": run_id,
                "files": [describe(args.dir, p) for p in sorted(files)]}
    with open(os.path.join(args.dir, "bundle.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="write a minimal replicate run")
    run.add_argument("out")
    run.add_argument("--run-id", required=True)
    run.add_argument("--duration-ns", type=int, required=True)
    run.add_argument("--implementation-id")
    run.add_argument("--pair-id")
    run.add_argument("--workload-id", default="infer")
    run.add_argument("--physical-batch", type=int, default=1)
    run.add_argument("--entrypoint", default="demo::infer")
    run.add_argument("--device", default="cpu")
    run.add_argument("--synchronized", action="store_true")
    run.add_argument("--scope", default="production_equivalent")
    run.add_argument("--no-identity", action="store_true")
    run.add_argument("--unmeasured", action="store_true", help="the root span is not measured")
    run.add_argument("--open", action="store_true", help="no span_end (an incomplete capture)")
    run.add_argument("--outcome", default="complete", choices=["complete", "failed"])
    run.add_argument("--tensor-stats", action="append", default=[], metavar="LABEL,RMS,ABS_MAX,NON_FINITE")
    bundle = sub.add_parser("bundle", help="build a bundle directory from a trace")
    bundle.add_argument("dir")
    bundle.add_argument("trace")
    bundle.add_argument("--extra", action="append", default=[], metavar="NAME=TEXT")
    bundle.add_argument("--run-id")
    args = parser.parse_args()
    if args.command == "run":
        write_run(args)
    else:
        write_bundle(args)


if __name__ == "__main__":
    main()
