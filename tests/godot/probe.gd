# Plays skelpad's Godot 3 exports in Godot itself and writes what it sees.
# plan.txt: one line per animation,
# `SCENE<TAB>ANIMATION<TAB>FPS<TAB>FRAMES<TAB>TIMES` (TIMES: the seconds to
# seek, comma-separated: whole and half frames and the loop seam).
# out.txt, per scene: `scene PATH`, per animation `anim NAME`, per time
# `f K` (its place in TIMES), then per node with `skelpad_bone` metadata `b NAME a b c d e f` (its
# global_transform: x axis, y axis, origin), per slot node `s NAME Z R G B A`
# (z_index, modulate), per shown attachment node `v NAME Z` (its slot's
# z_index), and per event the animation
# fires while played frame by frame `e FROM TO NAME PAYLOAD`: it was called
# while the animation advanced from FROM to TO (one frame).
extends Node

var out = File.new()
var playing = false
var player = null
var step_start = 0.0

func _ready():
	var plan = File.new()
	if plan.open("res://plan.txt", File.READ) != OK:
		print("PROBE cannot read plan.txt")
		get_tree().quit(2)
		return
	out.open("res://out.txt", File.WRITE)
	var current = ""
	var inst = null
	var bones = []
	var slots = []
	var atts = []
	while not plan.eof_reached():
		var line = plan.get_line()
		if line == "":
			continue
		var p = line.split("\t")
		if p[0] != current:
			if inst != null:
				inst.queue_free()
			current = p[0]
			out.store_line("scene " + current)
			var packed = load(current)
			if packed == null:
				out.store_line("error cannot load")
				inst = null
				continue
			inst = packed.instance()
			add_child(inst)
			inst.connect("skelpad_event", self, "_on_event")
			player = inst.get_node("AnimationPlayer")
			bones = []
			_collect(inst, bones, "skelpad_bone")
			slots = []
			_collect(inst, slots, "skelpad_slot")
			atts = []
			_collect(inst, atts, "skelpad_attachment")
		if inst == null:
			continue
		_play(p[1], float(p[2]), int(p[3]), p[4].split(","), bones, slots, atts)
	out.close()
	print("PROBE done")
	get_tree().quit()

func _collect(node, found, key):
	if node.has_meta(key):
		found.append(node)
	for c in node.get_children():
		_collect(c, found, key)

func _play(name, fps, frames, times, bones, slots, atts):
	out.store_line("anim " + name)
	if not player.has_animation(name):
		out.store_line("error no animation")
		return
	playing = false
	player.play(name)
	for k in range(times.size()):
		player.seek(float(times[k]), true)
		out.store_line("f " + str(k))
		for b in bones:
			var t = b.global_transform
			out.store_line("b %s %.6f %.6f %.6f %.6f %.6f %.6f" % [b.get_meta("skelpad_bone"), t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y])
		for s in slots:
			var c = s.modulate
			out.store_line("s %s %d %.6f %.6f %.6f %.6f" % [s.get_meta("skelpad_slot"), s.z_index, c.r, c.g, c.b, c.a])
		for a in atts:
			if a.is_visible_in_tree():
				out.store_line("v %s %d" % [a.get_meta("skelpad_attachment"), a.get_parent().z_index])
	# The events, played frame by frame from the start.
	player.stop()
	player.play(name)
	player.seek(0, true)
	playing = true
	player.advance(0)
	var length = player.current_animation_length
	for k in range(frames):
		# Each step covers [k / fps, (k + 1) / fps), the last one stops short
		# of the end (where a looping animation would start again).
		step_start = k / fps
		var delta = min(1.0 / fps, length - step_start - 0.0001)
		if delta <= 0:
			break
		player.advance(delta)
	playing = false
	player.stop()

func _on_event(name, payload):
	if playing:
		out.store_line("e %.6f %.6f %s %s" % [step_start, player.current_animation_position, name, to_json(payload)])
