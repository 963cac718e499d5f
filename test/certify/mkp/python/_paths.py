"""Puts the product's python/ folder (the stand-in and the runner) first on sys.path."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
PYTHON = ROOT / "python"
FIXTURES = ROOT / "test" / "certify" / "mkp" / "fixtures"
if str(PYTHON) not in sys.path:
    sys.path.insert(0, str(PYTHON))
