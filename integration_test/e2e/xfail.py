"""Expected failures of the e2e suite: (test, dtype) -> why. A listed test
that passes is reported as XPASS and fails the run, so this table stays
true."""

XFAIL = {
}
