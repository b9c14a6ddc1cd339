# Shared by the demo scripts. INSTALLTOP_DEMO_SPEED=4 runs everything four times faster.
speed=${INSTALLTOP_DEMO_SPEED:-1}

# nap SECONDS: sleep, scaled by the demo speed.
nap() {
    sleep "$(awk -v s="$1" -v k="$speed" 'BEGIN { printf "%.3f", s / k }')"
}

# say LINE: one line on installtop's progress channel (fd 3).
say() {
    printf '%s\n' "$*" >&"${INSTALLTOP_PROGRESS_FD:-3}"
}
