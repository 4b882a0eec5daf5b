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
