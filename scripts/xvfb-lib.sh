# Shared by the scripts that run the editor under a virtual X server
# (screenshot.sh, xvfb-typing.sh, xvfb-drag.sh); sourced, not run.

# Installs the packages for Xvfb, input and screenshots that are missing
# (apt-get, as root or via sudo).
ensure_xvfb_packages() {
    local packages=(xvfb xauth libxcursor1 libxi6 libxkbcommon-x11-0 libegl1 libegl-mesa0 libgl1-mesa-dri xdotool imagemagick)
    local missing=() p
    for p in "${packages[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Prints the id of the editor's window on display $1 once it appears (up to
# 10 s); fails with a message when it does not.
wait_for_window() {
    local display="$1" w=""
    for _ in $(seq 1 100); do
        w="$(DISPLAY="$display" xdotool search --name "skelpad" 2>/dev/null | head -n1 || true)"
        [ -n "$w" ] && { echo "$w"; return 0; }
        sleep 0.1
    done
    echo "error: the editor window did not appear" >&2
    return 1
}
