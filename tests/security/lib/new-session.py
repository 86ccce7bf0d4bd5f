#!/usr/bin/env python3
"""Runs a command as the leader of a new session and process group with SIGINT, SIGQUIT, SIGHUP and SIGTERM at
their defaults, as a terminal's foreground job gets them: a script's background job has SIGINT and SIGQUIT ignored,
and make and everything it starts would inherit that, so a Ctrl-C could never be tested.
    python3 tests/security/lib/new-session.py COMMAND [ARGS...]   (its pid is the group's id)"""
import os
import signal
import sys

for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(sig, signal.SIG_DFL)
os.setsid()
os.execvp(sys.argv[1], sys.argv[1:])
