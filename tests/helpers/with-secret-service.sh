#!/bin/sh
# Runs a command with an OS keychain for the keychain tests. On Linux without a session bus, that is a private
# D-Bus session with gnome-keyring's Secret Service, its keyring in a fresh temporary directory (never the
# user's own), unlocked with a throwaway password, and gone when the command ends. Elsewhere (a desktop
# session, macOS, Windows) the command runs as it is. (dbus-daemon may warn that it cannot raise its fd
# limit in a container; that is harmless.)
if [ -z "$DBUS_SESSION_BUS_ADDRESS" ] && [ -z "$CAIRN_SECRET_SERVICE_STARTED" ] \
  && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  export CAIRN_SECRET_SERVICE_STARTED=1
  keyrings=$(mktemp -d "${TMPDIR:-/tmp}/cairn-keyring-XXXXXX") || exit 1
  dbus-run-session -- sh -c '
    echo -n cairn-test | XDG_DATA_HOME="$0" gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec "$@"' "$keyrings" "$@"
  rc=$?
  rm -rf "$keyrings"
  exit $rc
fi
exec "$@"
