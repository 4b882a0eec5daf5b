# Plays a crossfade in Godot's AnimationPlayer and writes the poses it sees.
# blend_plan.txt: one line per crossfade,
# `SCENE<TAB>FROM<TAB>TO<TAB>START<TAB>MIX<TAB>TIMES`: FROM plays from 0 for
# START seconds, then `play(TO)` with `set_blend_time(FROM, TO, MIX)`, and the
# pose is taken TIMES seconds (comma-separated, increasing) after that call.
# The player is advanced by hand (ANIMATION_PROCESS_MANUAL): `advance(dt)`
# to each time, then `advance(0)` so the blend weight is the one at that
# time (Godot 3 lowers a blend's weight after applying it in a step).
# blend_out.txt: `case K`, then per time `f K` and per node with
# `skelpad_bone` metadata `b NAME a b c d e f` (its global_transform).
extends Node

func _ready():
	var plan = File.new()
	if plan.open("res://blend_plan.txt", File.READ) != OK:
		print("PROBE cannot read blend_plan.txt")
		get_tree().quit(2)
		return
	var out = File.new()
	out.open("res://blend_out.txt", File.WRITE)
	var n = 0
	while not plan.eof_reached():
		var line = plan.get_line()
		if line == "":
			continue
		var p = line.split("\t")
		out.store_line("case %d" % n)
		n += 1
		var inst = load(p[0]).instance()
		add_child(inst)
		var player = inst.get_node("AnimationPlayer")
		player.playback_process_mode = AnimationPlayer.ANIMATION_PROCESS_MANUAL
		player.set_blend_time(p[1], p[2], float(p[4]))
		var bones = []
		_collect(inst, bones)
		player.play(p[1])
		player.seek(0, true)
		player.advance(float(p[3]))
		player.play(p[2])
		var now = 0.0
		var times = p[5].split(",")
		for k in range(times.size()):
			var t = float(times[k])
			player.advance(t - now)
			player.advance(0)
			now = t
			out.store_line("f %d" % k)
			for b in bones:
				var g = b.global_transform
				out.store_line("b %s %.6f %.6f %.6f %.6f %.6f %.6f" % [b.get_meta("skelpad_bone"), g.x.x, g.x.y, g.y.x, g.y.y, g.origin.x, g.origin.y])
		inst.queue_free()
	out.close()
	print("PROBE done")
	get_tree().quit()

func _collect(node, found):
	if node.has_meta("skelpad_bone"):
		found.append(node)
	for c in node.get_children():
		_collect(c, found)
