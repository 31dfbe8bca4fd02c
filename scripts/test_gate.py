#!/usr/bin/env python3
"""The test gate: what a `swift test` run actually ran, read from swift-testing's event stream
(`swift test --event-stream-output-path FILE --event-stream-version 0`, JSON Lines as
swift-testing's Documentation/ABI/JSON.md defines them), against the run's minimums in
Tests/minimum-cases.json. It fails, with one line per reason, when

  - the stream is missing or the run never ended (a crash or a kill: the tests that started and
    never ended are named);
  - any test was skipped or cancelled (`.disabled`, `.enabled(if:)` false, a cancel);
  - fewer test functions ran than the run's "tests";
  - fewer argument cases ran under a test or suite id than its entry in the run's "cases" (an id
    is `Module.Suite/function(label:)` or `Module.Suite`, as `swift test list` prints them);
  - a parameterized test ran no case at all (its arguments were empty).

A passing or failing test is swift test's own exit status; the gate says only whether the run
counted. It prints one summary line either way.

Usage: test_gate.py RUN STREAM [MINIMUMS]   (MINIMUMS defaults to Tests/minimum-cases.json)
       test_gate.py --counts STREAM          (cases per parameterized test, to set a minimum)
Standard library only: run with /usr/bin/python3 or the project's .venv."""
import json
import os
import re
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "Tests", "minimum-cases.json")
# A test id ends in its source location (`…/File.swift:12:6`); the table names tests without it.
LOCATION = re.compile(r"/[^/]+\.swift:\d+:\d+$")


def plain_id(test_id):
    """A test id without its trailing source location: what the table and `swift test list` use."""
    return LOCATION.sub("", test_id)


class Run:
    """What one event stream says ran."""

    def __init__(self, path):
        self.tests = {}          # plain id -> test record (functions and suites)
        self.started = Counter()  # plain id -> testStarted events
        self.ended = Counter()    # plain id -> testEnded events
        self.cases = Counter()    # plain id -> testCaseStarted events
        self.skipped = []         # (plain id, kind, comment)
        self.run_ended = False
        self.records = 0
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as e:
                    # A line cut short by a kill is the last one; anything else is not a stream.
                    raise SystemExit(f"gate: {path}:{number} is not a JSON line ({e})") from None
                self.records += 1
                self.read(record)

    def read(self, record):
        payload = record.get("payload", {})
        if record.get("kind") == "test":
            self.tests[plain_id(payload["id"])] = payload
            return
        if record.get("kind") != "event":
            return
        kind = payload.get("kind")
        test = plain_id(payload["testID"]) if "testID" in payload else None
        if kind == "testStarted":
            self.started[test] += 1
        elif kind == "testEnded":
            self.ended[test] += 1
        elif kind == "testCaseStarted":
            self.cases[test] += 1
        elif kind in ("testSkipped", "testCancelled", "testCaseCancelled"):
            text = "; ".join(m.get("text", "") for m in payload.get("messages", []))
            self.skipped.append((test, kind, text))
        elif kind == "runEnded":
            self.run_ended = True

    def is_function(self, test):
        return self.tests.get(test, {}).get("kind") == "function"

    def functions_run(self):
        return sorted(t for t in self.started if self.is_function(t))

    def cases_of(self, test):
        """The argument cases a test function ran: swift-testing reports a case started only for a
        parameterized test; a test without arguments that started ran its one case."""
        if self.tests.get(test, {}).get("isParameterized"):
            return self.cases[test]
        return 1 if self.started[test] else 0

    def cases_under(self, key):
        """Cases of the test `key`, or of every test in the suite `key`."""
        return sum(self.cases_of(t) for t in self.functions_run() if t == key or t.startswith(key + "/"))


def check(run_name, stream, table_path):
    try:
        with open(table_path, encoding="utf-8") as f:
            runs = json.load(f)["runs"]
    except (OSError, ValueError, KeyError) as e:
        return [f"cannot read the minimums {table_path}: {e}"], ""
    if run_name not in runs:
        return [f"{table_path} has no run '{run_name}' (it has {', '.join(sorted(runs))})"], ""
    minimums = runs[run_name]
    if not os.path.exists(stream) or os.path.getsize(stream) == 0:
        return [f"no event stream in {stream}: swift test wrote none (killed while waiting for the build folder, or failed before running any test)"], ""
    run = Run(stream)
    failures = []
    if not run.run_ended:
        hung = sorted(t for t in run.started if run.started[t] > run.ended[t] and run.is_function(t))
        failures.append("the run never ended (crashed or killed); started and never ended: "
                        + (", ".join(hung) if hung else "none"))
    for test, kind, text in run.skipped:
        what = "skipped" if kind == "testSkipped" else "cancelled"
        failures.append(f"{test}: {what}" + (f" ({text})" if text else "") + ": no test may be skipped")
    functions = run.functions_run()
    least = minimums.get("tests", 0)
    if len(functions) < least:
        failures.append(f"{len(functions)} tests ran, fewer than the {least} of run '{run_name}' in {os.path.relpath(table_path, ROOT)}")
    for key, least in sorted(minimums.get("cases", {}).items()):
        got = run.cases_under(key)
        if got < least:
            why = "" if got else " (renamed, filtered out, or its arguments empty?)"
            failures.append(f"{key}: {got} cases ran, fewer than the {least} required{why}")
    for test in functions:
        if run.tests[test].get("isParameterized") and run.cases[test] == 0:
            failures.append(f"{test}: a parameterized test that ran no case (its arguments are empty)")
    summary = (f"gate ({run_name}): {len(functions)} tests, {sum(run.cases_of(t) for t in functions)} cases, "
               f"{len(run.skipped)} skipped or cancelled")
    return failures, summary


def counts(stream):
    run = Run(stream)
    for test in run.functions_run():
        if run.tests[test].get("isParameterized"):
            print(f"{run.cases[test]:6d} {test}")


def main(argv):
    if len(argv) == 3 and argv[1] == "--counts":
        counts(argv[2])
        return 0
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    failures, summary = check(argv[1], argv[2], argv[3] if len(argv) == 4 else TABLE)
    for line in failures:
        print(f"gate: {line}", file=sys.stderr)
    if summary:
        print(summary + (f": {len(failures)} failures" if failures else ": minimums met"), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
