#!/bin/sh
# A stale registration file of LLVM's OpenMP runtime (engine/base/parallel.h):
# an empty /dev/shm/__KMP_REGISTERED_LIB_PID_UID, as a process killed at its
# start leaves, made for the pid the next yinsh will get (the kernel's
# ns_last_pid, writable by root): yinsh must play, not die of SIGBUS, and
# leave no file. Skipped (77) where the pid cannot be chosen.
# Usage: omp_stale_check.sh YINSH
set -u
yinsh=$1
last=/proc/sys/kernel/ns_last_pid
[ -w "$last" ] && [ -d /dev/shm ] && [ -w /dev/shm ] ||
  { echo "omp_stale_check: skipped: $last or /dev/shm not writable (not root)"; exit 77; }
max=$(cat /proc/sys/kernel/pid_max)
uid=$(id -u)
tries=0
while [ $tries -lt 50 ]; do
  tries=$((tries + 1))
  # a pid ahead of the last one, inside the range, not in use
  p=$(( ($(cat "$last") + 500) % (max - 1000) + 500 ))
  [ -e "/proc/$p" ] && continue
  file=/dev/shm/__KMP_REGISTERED_LIB_${p}_$uid
  : >"$file"
  echo $((p - 1)) >"$last" 2>/dev/null || { rm -f "$file"; continue; }
  "$yinsh" selfplay --games 2 --agent random --seed 1 --threads 2 --no-db --quiet >/dev/null 2>&1 &
  pid=$!
  wait $pid
  rc=$?
  if [ "$pid" != "$p" ]; then rm -f "$file"; continue; fi # another process took the pid first
  if [ $rc -ne 0 ]; then
    rm -f "$file"
    echo "omp_stale_check: yinsh with pid $p and an empty $file ended with status $rc (135: SIGBUS)"
    exit 1
  fi
  if [ -e "$file" ]; then
    rm -f "$file"
    echo "omp_stale_check: $file is still there"
    exit 1
  fi
  echo "omp_stale_check: pid $p played with a stale empty registration file before it"
  exit 0
done
echo "omp_stale_check: skipped: no pid could be chosen in $tries tries"
exit 77
