#!/usr/bin/env python3
"""Sums the JUnit reports of every suite into one line: `N passed, N failed`."""
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

passed = failed = 0
for report in sorted(Path(sys.argv[1]).glob("*.xml")):
    suite_passed = suite_failed = 0
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.find("skipped") is not None:
            continue
        if case.find("failure") is not None or case.find("error") is not None:
            suite_failed += 1
        else:
            suite_passed += 1
    print(f"  {report.stem}: {suite_passed} passed, {suite_failed} failed")
    passed += suite_passed
    failed += suite_failed
print(f"{passed} passed, {failed} failed")
