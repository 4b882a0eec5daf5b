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

# Waits until the X server of display $1 answers (up to 10 s; a fixed
# one-second sleep was sometimes too short on a busy machine); fails with a
# message when it does not.
wait_for_display() {
    local display="$1"
    for _ in $(seq 1 100); do
        DISPLAY="$display" xdotool getdisplaygeometry >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "error: the X server on $display did not start" >&2
    return 1
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

# Starts a virtual X server on display $1 and the editor ($bin) on the
# script $2 in it (settings kept under $work); on exit both stop and $work
# is removed. Sets xvfb, app and wid (the editor's window, 1400×860 at 0,0,
# with the keyboard focus; `display` holds $1 afterwards), then waits XVFB_WAIT seconds
# (default 3) for it to draw.
start_editor() {
    display="$1"
    local script="$2"
    Xvfb "$display" -screen 0 1400x860x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    trap stop_editor EXIT
    wait_for_display "$display"
    DISPLAY="$display" XDG_DATA_HOME="$work" XDG_CONFIG_HOME="$work" WAYLAND_DISPLAY= \
        LIBGL_ALWAYS_SOFTWARE=1 "$bin" "$script" &
    app=$!
    wid="$(wait_for_window "$display")"
    DISPLAY="$display" xdotool windowsize "$wid" 1400 860 windowmove "$wid" 0 0 2>/dev/null || true
    # Keyboard focus: asking fails until the window is mapped.
    for _ in $(seq 1 50); do
        DISPLAY="$display" xdotool windowfocus --sync "$wid" 2>/dev/null && break
        sleep 0.2
    done
    sleep "${XVFB_WAIT:-3}"
}

stop_editor() {
    [ -n "${app:-}" ] && kill "$app" 2>/dev/null || true
    [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null || true
    rm -rf "$work"
}

# Prints "X Y": where to grab the origin mark of the one bone drawn magenta
# in the screenshot $1 (its diamond is the only magenta on screen; a third
# of the way along it, where the origin is); $2 names the bone in errors.
magenta_mark() {
    local bbox w h x y
    bbox="$(convert "$1" -fuzz 30% -fill black +opaque '#FF00FF' -format '%@' info:)"
    read -r w h x y < <(echo "$bbox" | sed 's/[x+]/ /g')
    if [ "${w:-0}" -le 3 ] || [ "${w:-0}" -gt 400 ]; then
        echo "error: cannot find the diamond of \`$2\` (magenta box: $bbox)" >&2
        return 1
    fi
    echo "$((x + w / 3)) $((y + h / 2))"
    echo "origin mark of $2 at ($((x + w / 3)), $((y + h / 2))) on screen (box $bbox)" >&2
}

# Saves with Ctrl+S in the window $1 (focused again first: there is no
# window manager), then waits for the file to be written.
save_with_ctrl_s() {
    xdotool windowfocus --sync "$1" 2>/dev/null || true
    sleep 0.3
    xdotool keydown ctrl
    sleep 0.1
    xdotool key s
    sleep 0.1
    xdotool keyup ctrl
    sleep 1.5
}

# Prints the skelpad binary to run: $SKELPAD_BIN if set, else the release
# build (built first).
skelpad_bin() {
    if [ -n "${SKELPAD_BIN:-}" ]; then
        echo "$SKELPAD_BIN"
    else
        cargo build --release --quiet >&2
        echo "${CARGO_TARGET_DIR:-target}/release/skelpad"
    fi
}
