#!/bin/sh
# A command agent that looks at what it can do to the machine from its sandbox and writes what
# it found into its folder (found.txt): who it is, whether it can write the kernel's settings
# (each write puts back the value already there, so it changes nothing even where it works),
# and whether it can write where an honest agent writes. It leaves a set-user-ID file behind.
D="$PHONESHELL_ATTEMPT_DIR"
{
  echo "uid $(id -u)"
  for s in /proc/sys/kernel/core_pattern /proc/sys/kernel/pid_max /proc/sys/fs/file-max \
           /proc/sys/net/ipv4/ip_local_port_range; do
    v=$(cat "$s")
    if printf '%s\n' "$v" 2>/dev/null > "$s"; then echo "wrote $s"; else echo "refused $s"; fi
  done
  for f in "$HOME/note" /tmp/note /dev/shm/note; do
    if echo hi 2>/dev/null > "$f"; then echo "wrote $f"; else echo "refused $f"; fi
  done
} > "$D/found.txt" 2>&1
cp /bin/true "$D/setuid" && chmod 4755 "$D/setuid"
phoneshell finish --status failed --summary "looked around"
