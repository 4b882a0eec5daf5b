// Runs the original Skel2D tool's parser and runtime (urraka/skel2d,
// src/skel2d_parser.js + src/skel2d_core.js) on a script and reduces the
// result to the JSON that `skelpad pose --json` prints.
//
// The original's source is read at run time from a checkout outside this
// repository (SKEL2D_SRC); nothing of it is kept here. It is evaluated in a
// `vm` context exactly as written, with one addition made in memory: its name
// lookup (`find_name`) is wrapped so that a lookup where raw string suffixes
// (the original) and whole dotted segments (skelpad, LANGUAGE.md §2.4
// [differs]) disagree is recorded, and the script can be set aside as a
// deliberate difference.
"use strict";

const fs = require("fs");
const path = require("path");
const vm = require("vm");

function loadOriginal(srcDir) {
	const dir = fs.existsSync(path.join(srcDir, "src", "skel2d_parser.js")) ? path.join(srcDir, "src") : srcDir;
	const parserFile = path.join(dir, "skel2d_parser.js");
	const coreFile = path.join(dir, "skel2d_core.js");
	let parser = fs.readFileSync(parserFile, "utf8");
	const core = fs.readFileSync(coreFile, "utf8");

	const decl = "function find_name(list, name, def)";
	if (!parser.includes(decl))
		throw new Error(`${parserFile}: no \`${decl}\`; is this urraka/skel2d?`);
	parser = parser.replace(decl, "function find_name__original(list, name, def)");
	// Function declarations are hoisted, so appending inside the IIFE works.
	const wrapper = `
function find_name(list, name, def) {
	var result = find_name__original(list, name, def);
	var hits = list.filter(function(item) {
		var full = "skeleton." + item.name;
		return full === name || full.slice(-(name.length + 1)) === "." + name;
	});
	var segment = hits.length === 1 ? hits[0].name : def;
	if (segment !== result)
		__differs.add("name-suffix: " + JSON.stringify(name));
	return result;
}
`;
	const end = parser.lastIndexOf("}(this));");
	if (end < 0) throw new Error(`${parserFile}: unexpected layout`);
	parser = parser.slice(0, end) + wrapper + parser.slice(end);

	const ctx = { __differs: new Set() };
	vm.createContext(ctx);
	vm.runInContext(parser, ctx, { filename: parserFile });
	vm.runInContext(core, ctx, { filename: coreFile });
	if (typeof ctx.skel2d_parse !== "function" || typeof ctx.sk2 !== "object")
		throw new Error(`${dir}: the parser or the runtime did not load`);
	return {
		// times: function(animationName, duration) -> list of times, or null for the default ones.
		pose(text, times) {
			ctx.__differs = new Set();
			const data = ctx.skel2d_parse(text);
			const sk2 = ctx.sk2;
			const skeleton = new sk2.Skeleton(data.skeleton);
			const differs = ctx.__differs;

			for (const anim of data.animations)
				for (const item of anim.raw.items)
					for (const tl of item.timelines)
						if (tl.property.length !== 1)
							differs.add(`multi-letter property: ${JSON.stringify(tl.property)}`);

			const snapshot = (time) => {
				const bones = skeleton.bones.map((b) => ({ name: b.name, world: Array.from(b.world_transform, num) }));
				const att = skeleton.skins[0].attachments;
				const slots = skeleton.slots.map((s) => {
					const c = s.current_state;
					const a = c.attachment >= 0 && c.attachment < att.length ? att[c.attachment].name : null;
					return { name: s.name, color: [c.r, c.g, c.b, c.a].map(num), attachment: a };
				});
				return time === undefined ? { bones, slots } : { time, bones, slots };
			};

			const out = {
				draw_order: skeleton.slots.map((s) => s.name),
				setup: snapshot(),
				animations: [],
				differs: [],
			};
			for (const anim of data.animations) {
				const a = new sk2.Animation(skeleton, anim);
				const fps = anim.raw.fps || 20;
				let ts = times ? times(anim.name, a.duration) : null;
				if (!ts) {
					ts = [0];
					for (let k = 1; k <= 9; k++) ts.push((k * a.duration) / 10);
					ts.push(a.duration);
				}
				const poses = ts.map((t) => {
					skeleton.reset();
					a.apply(skeleton, 0, t, 1);
					skeleton.update_transform();
					return snapshot(t);
				});
				out.animations.push({ name: anim.name, duration: a.duration, fps, poses });
			}
			skeleton.reset();
			skeleton.update_transform();
			out.differs = Array.from(differs).sort();
			return out;
		},
	};
}

function num(x) {
	return Number.isFinite(x) ? x : "NaN";
}

module.exports = { loadOriginal };

if (require.main === module) {
	// node original.js SCRIPT.skel2d  (needs SKEL2D_SRC)
	const src = process.env.SKEL2D_SRC;
	if (!src || process.argv.length < 3) {
		console.error("usage: SKEL2D_SRC=/path/to/skel2d node original.js SCRIPT.skel2d");
		process.exit(2);
	}
	const orig = loadOriginal(src);
	const out = orig.pose(fs.readFileSync(process.argv[2], "utf8"));
	process.stdout.write(JSON.stringify(out, null, 1) + "\n");
}
