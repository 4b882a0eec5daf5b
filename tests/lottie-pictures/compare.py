"""Pictures of Lottie exports drawn by rlottie and ThorVG (their PyPI wheels)
against `skelpad render` of the same frame, by soft IoU of the alpha
channels: sum(min(a, b)) / sum(max(a, b)).

Framing: each animation exported alone (`--anim NAME`) at `--size 256x256
--fit`, rendered by skelpad with the same `--size 256x256 --fit` (both fit
the animation's bounds with the same margin). Frames: 0 and the middle one.

Pictures (sprites): ThorVG draws a rotated or skewed image off by up to a
texel at its edges (a 4x4 picture scaled 10x and turned 20 degrees covers 0.59
of the exact area by soft IoU, 64x64 at 50 % 0.94; rlottie 0.99 for both), so
ThorVG is also compared on the shapes alone ("shapes": true): the script is
copied into a folder without its pictures, where `skelpad export` and
`skelpad render` both leave the sprites out. rlottie is compared with the
pictures.

Usage: python compare.py SKELPAD_BIN OUT_DIR SCRIPT... ; prints one JSON line
per (script, animation, frame, player, shapes)."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image
from rlottie_python import LottieAnimation
import thorvg_python as tvg

SIZE = 256


def skelpad(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return out


def alpha(path):
    return np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)[:, :, 3] / 255.0


def soft_iou(a, b):
    hi = np.maximum(a, b).sum()
    return 1.0 if hi == 0 else float(np.minimum(a, b).sum() / hi)


def rlottie_frame(path, frame, out):
    anim = LottieAnimation.from_file(str(path))
    anim.render_pillow_frame(frame_num=frame).save(out)


def thorvg_frame(path, frame, out):
    engine = tvg.Engine()
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(SIZE, SIZE)
    anim = tvg.LottieAnimation(engine)
    pic = anim.get_picture()
    pic.load(str(path))
    pic.set_size(SIZE, SIZE)
    canvas.add(pic)
    anim.set_frame(frame)
    canvas.update()
    canvas.draw(True)
    canvas.sync()
    canvas.get_pillow().save(out)


def main():
    binary, out_dir, scripts = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    out_dir.mkdir(parents=True, exist_ok=True)
    bare = out_dir / "shapes"
    bare.mkdir(exist_ok=True)
    for script in scripts:
        alone = bare / Path(script).name
        shutil.copyfile(script, alone)
        compare(binary, out_dir, script, False)
        compare(binary, bare, str(alone), True)


def compare(binary, out_dir, script, shapes):
    every = out_dir / (Path(script).stem + ".json")
    skelpad(binary, "export", script, "-o", str(every))
    # Animations are the markers with a length; events have none.
    names = [m["cm"] for m in json.loads(every.read_text())["markers"] if m["dr"] > 0]
    for anim in names:
        stem = out_dir / (Path(script).stem + "_" + anim)
        lottie = stem.with_suffix(".json")
        skelpad(binary, "export", script, "--anim", anim, "--size", f"{SIZE}x{SIZE}", "--fit", "-o", str(lottie))
        total = json.loads(lottie.read_text())["op"]
        for frame in sorted({0, int(total) // 2}):
            ref = f"{stem}_{frame}_skelpad.png"
            skelpad(binary, "render", script, "--anim", anim, "--frame", str(frame), "--size", f"{SIZE}x{SIZE}", "--fit", "-o", ref)
            for player, draw in (("rlottie", rlottie_frame), ("thorvg", thorvg_frame)):
                got = f"{stem}_{frame}_{player}.png"
                draw(lottie, frame, got)
                print(json.dumps({"script": script, "anim": anim, "frame": frame, "player": player, "shapes": shapes,
                                  "iou": soft_iou(alpha(ref), alpha(got)), "skelpad": ref, "player_png": got}))


main()
