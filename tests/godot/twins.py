"""Reads a Godot 4 scene and its Godot 3 twin with godot-parser (PyPI, a
reader not written here) and checks that they say the same through the
version table of docs/godot.md: the same nodes (class, properties,
metadata), the same animations, tracks and keys, and that every track's
path resolves to a node of the Godot 4 scene.

usage: twins.py GODOT4.tscn GODOT3.tscn  (prints `ok NODES TRACKS KEYS`)
"""

import math
import sys

from godot_parser import GDScene
from godot_parser.objects import GDObject

# The table of docs/godot.md, Godot 3 name -> Godot 4 name.
CLASSES = {"Sprite": "Sprite2D", "Texture": "Texture2D"}
PROPERTIES = {"rotation_degrees": "rotation", "method_call_mode": "callback_mode_method"}
ARRAYS = {
    "PoolVector2Array": "PackedVector2Array",
    "PoolIntArray": "PackedInt32Array",
    "PoolRealArray": "PackedFloat32Array",
}


def plain(v, ext):
    """Values as plain Python, resources by what they are."""
    if isinstance(v, GDObject):
        name = ARRAYS.get(v.name, v.name)
        args = [plain(a, ext) for a in v.args]
        if name == "ExtResource":
            return ["ext", ext[str(args[0])]]
        return [name, args]
    if isinstance(v, list):
        return [plain(x, ext) for x in v]
    if isinstance(v, dict):
        return {k: plain(x, ext) for k, x in v.items()}
    return v


def radians(v):
    return math.radians(v) if isinstance(v, (int, float)) else v


def read(path):
    scene = GDScene.parse(open(path, encoding="utf-8").read())
    fmt = scene.get_sections()[0].header["format"]
    ext = {str(s.header["id"]): (CLASSES.get(s.header["type"], s.header["type"]), s.header["path"])
           for s in scene.get_ext_resources()}
    subs = {str(s.header["id"]): s for s in scene.get_sub_resources()}
    nodes, anims = {}, {}
    for n in scene.get_nodes():
        h = n.header
        parent = h.get("parent")
        path = "." if parent is None else (h["name"] if parent == "." else parent + "/" + h["name"])
        props, meta = {}, {}
        for k, v in n.properties.items():
            v = plain(v, ext)
            if k == "__meta__":
                meta.update(v)
            elif k.startswith("metadata/"):
                meta[k[len("metadata/"):]] = v
            elif k.startswith("anims/"):
                anims[k[len("anims/"):]] = subs[str(n.properties[k].id)]
            elif k == "libraries":
                lib = subs[str(n.properties[k][""].id)]
                for name, ref in lib.properties["_data"].items():
                    anims[name] = subs[str(ref.id)]
            elif k == "rotation_degrees":
                props["rotation"] = radians(v)
            else:
                props[PROPERTIES.get(k, k)] = v
        nodes[path] = {"class": CLASSES.get(h["type"], h["type"]), "props": props, "meta": meta}
    return fmt, nodes, {name: animation(sub, ext) for name, sub in anims.items()}


def animation(sub, ext):
    p = sub.properties
    out = {"name": p["resource_name"], "length": p["length"], "step": p["step"],
           "loop": bool(p["loop_mode"]) if "loop_mode" in p else p["loop"], "tracks": []}
    i = 0
    while "tracks/%d/type" % i in p:
        path = p["tracks/%d/path" % i].args[0]
        keys = plain(p["tracks/%d/keys" % i], ext)
        if path.endswith(":rotation_degrees"):
            path = path[: -len("rotation_degrees")] + "rotation"
            keys["values"] = [radians(v) for v in keys["values"]]
        out["tracks"].append({"type": p["tracks/%d/type" % i], "path": path,
                              "interp": p["tracks/%d/interp" % i], "keys": keys})
        i += 1
    return out


def same(a, b, where):
    if isinstance(a, bool) or isinstance(b, bool):
        ok = a == b
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        ok = abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise SystemExit("%s: %d items against %d" % (where, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, "%s[%d]" % (where, i))
        return
    elif isinstance(a, dict) and isinstance(b, dict):
        if sorted(a) != sorted(b):
            raise SystemExit("%s: keys %s against %s" % (where, sorted(a), sorted(b)))
        for k in a:
            same(a[k], b[k], "%s.%s" % (where, k))
        return
    else:
        ok = a == b
    if not ok:
        raise SystemExit("%s: %r (Godot 4) against %r (Godot 3)" % (where, a, b))


def main():
    f4, nodes4, anims4 = read(sys.argv[1])
    f3, nodes3, anims3 = read(sys.argv[2])
    if (f4, f3) != (3, 2):
        raise SystemExit("formats %s and %s, not 3 and 2" % (f4, f3))
    same(nodes4, nodes3, "nodes")
    same(anims4, anims3, "animations")
    tracks = keys = 0
    for name, a in anims4.items():
        for t in a["tracks"]:
            node, _, prop = t["path"].partition(":")
            if node not in nodes4 or (t["type"] == "value" and not prop):
                raise SystemExit("animation %s: track %s resolves to no node" % (name, t["path"]))
            tracks += 1
            keys += len(t["keys"]["times"][1])
    print("ok %d %d %d" % (len(nodes4), tracks, keys))


main()
