// Differential test: random scripts (gen.js) run through the original Skel2D
// tool (original.js) and through `skelpad pose --json`; poses are compared at
// the times skelpad reports (0, tenths of the duration, the end), durations
// and draw order too. Mismatching scripts are written to the output folder
// with both JSON results.
//
// usage: node run.js --src SKEL2D_SRC --skelpad BIN [--count N] [--seed S] [--out DIR]
"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const { spawnSync } = require("child_process");
const { loadOriginal } = require("./original");
const { gen } = require("./gen");

function args() {
	const a = { count: 1000, seed: 1, out: path.join(os.tmpdir(), "skelpad-differential") };
	const v = process.argv.slice(2);
	for (let i = 0; i < v.length; i++) {
		const k = v[i].replace(/^--/, "");
		a[k] = v[++i];
	}
	a.count = Number(a.count);
	a.seed = Number(a.seed);
	if (!a.src || !a.skelpad || !(a.count > 0)) {
		console.error("usage: node run.js --src SKEL2D_SRC --skelpad BIN [--count N] [--seed S] [--out DIR]");
		process.exit(2);
	}
	return a;
}

const WORLD = 1e-6;
const EXTRA_TIMES = [0.013, 0.07, 0.25, 0.3333, 0.61, 1.05, 1.5, 2.25, 4.9, 20];
const COLOR = 1 / 255 + 1e-9;
const TIME = 1e-9;

function close(e, a, tol) {
	if (e === "NaN") return a !== "NaN" && Number.isFinite(a); // the original divided by zero; skelpad must not
	if (a === "NaN" || !Number.isFinite(a)) return false;
	return Math.abs(e - a) <= tol * Math.max(1, Math.abs(e));
}

let checks = 0;

function comparePose(tag, exp, act, fails) {
	checks += exp.bones.length + exp.slots.length + 1;
	const ab = new Map(act.bones.map((b) => [b.name, b]));
	for (const b of exp.bones) {
		const g = ab.get(b.name);
		if (!g) fails.push(`${tag}: bone ${b.name} missing`);
		else if (!b.world.every((e, i) => close(e, g.world[i], WORLD)))
			fails.push(`${tag}: bone ${b.name} world ${JSON.stringify(g.world)} != ${JSON.stringify(b.world)}`);
	}
	const eb = new Set(exp.bones.map((b) => b.name));
	for (const b of act.bones) if (!eb.has(b.name)) fails.push(`${tag}: unexpected bone ${b.name}`);
	const as = new Map(act.slots.map((s) => [s.name, s]));
	for (const s of exp.slots) {
		const g = as.get(s.name);
		if (!g) fails.push(`${tag}: slot ${s.name} missing`);
		else if (g.attachment !== s.attachment) fails.push(`${tag}: slot ${s.name} attachment ${g.attachment} != ${s.attachment}`);
		else if (!s.color.every((e, i) => close(e, g.color[i], COLOR)))
			fails.push(`${tag}: slot ${s.name} color ${JSON.stringify(g.color)} != ${JSON.stringify(s.color)}`);
	}
	const es = new Set(exp.slots.map((s) => s.name));
	for (const s of act.slots) if (!es.has(s.name)) fails.push(`${tag}: unexpected slot ${s.name}`);
}

// Order entries that skelpad accepts on purpose (LANGUAGE.md §4 [differs]):
// the path followed by whitespace other than a plain space, then a comment.
function orderDiffers(text) {
	let inOrder = false;
	for (let line of text.split("\n")) {
		if (line.endsWith("\r")) line = line.slice(0, -1);
		if (/^\s*(?:#(?=\s|$).*)?$/.test(line)) continue;
		if (/^[^\t]/.test(line)) {
			inOrder = /^order(?:\s|$)/.test(line);
			continue;
		}
		const m = inOrder && /^\t@[a-zA-Z_\-][\w\-]*(?:\.[a-zA-Z_\-][\w\-]*)*/.exec(line);
		if (!m) continue;
		const rest = line.slice(m[0].length);
		if (rest.length > 0 && rest[0] !== " " && /^\s+#(?:\s|$)/.test(rest)) return true;
	}
	return false;
}

function main() {
	const a = args();
	const orig = loadOriginal(a.src);
	fs.mkdirSync(a.out, { recursive: true });
	const work = fs.mkdtempSync(path.join(os.tmpdir(), "skelpad-diff-"));
	const file = path.join(work, "script.skel2d");
	const stats = { withErrors: 0, ran: 0, matched: 0, setAside: 0, mismatched: 0, crashed: 0 };
	const kinds = new Map();
	const asideKinds = new Map();
	const count = (m, k) => m.set(k, (m.get(k) || 0) + 1);

	for (let seed = a.seed; seed < a.seed + a.count; seed++) {
		const text = gen(seed);
		fs.writeFileSync(file, text);
		stats.ran++;
		const run = spawnSync(a.skelpad, ["pose", "--json", file], { encoding: "utf8", maxBuffer: 1 << 28, timeout: 60000 });
		if (run.status !== 0 && run.status !== 1) {
			stats.crashed++;
			count(kinds, `skelpad exit ${run.status} ${run.signal || ""}`.trim());
			fs.writeFileSync(path.join(a.out, `${seed}.skel2d`), text);
			fs.writeFileSync(path.join(a.out, `${seed}.txt`), run.stderr || "");
			continue;
		}
		if (/has \d+ error/.test(run.stderr)) stats.withErrors++;
		const mine = JSON.parse(run.stdout);
		// Times between and after keys as well: `--times` poses every
		// animation at the same list; these are compared too.
		const extra = spawnSync(a.skelpad, ["pose", "--json", "--times", EXTRA_TIMES.join(","), file], { encoding: "utf8", maxBuffer: 1 << 28, timeout: 60000 });
		if (extra.status !== 0 && extra.status !== 1) {
			stats.crashed++;
			count(kinds, `skelpad --times exit ${extra.status} ${extra.signal || ""}`.trim());
			fs.writeFileSync(path.join(a.out, `${seed}.skel2d`), text);
			continue;
		}
		for (const ea of JSON.parse(extra.stdout).animations) {
			const m = mine.animations.find((x) => x.name === ea.name);
			if (m) m.poses.push(...ea.poses);
		}
		const myAnims = new Map(mine.animations.map((x) => [x.name, x]));
		let theirs;
		try {
			theirs = orig.pose(text, (name) => (myAnims.has(name) ? myAnims.get(name).poses.map((p) => p.time) : null));
		} catch (e) {
			// The original itself threw: nothing to compare with.
			stats.setAside++;
			count(asideKinds, `original threw: ${String(e.message).slice(0, 60)}`);
			continue;
		}
		const differs = theirs.differs.slice();
		const orderAside = orderDiffers(text);
		if (orderAside) differs.push("order entry with tab and comment");
		const nameAside = differs.some((d) => d.startsWith("name-suffix"));
		const multiLetter = differs.some((d) => d.startsWith("multi-letter"));
		if (nameAside) {
			stats.setAside++;
			count(asideKinds, "name references by raw suffix (§2.4 [differs])");
			continue;
		}
		const fails = [];
		if (!orderAside && JSON.stringify(mine.draw_order) !== JSON.stringify(theirs.draw_order))
			fails.push(`draw_order ${JSON.stringify(mine.draw_order)} != ${JSON.stringify(theirs.draw_order)}`);
		comparePose("setup", theirs.setup, mine.setup, fails);
		const names = new Set();
		for (const t of theirs.animations) {
			if (names.has(t.name)) continue;
			names.add(t.name);
			const m = myAnims.get(t.name);
			if (!m) {
				fails.push(`animation ${JSON.stringify(t.name)} missing`);
				continue;
			}
			if (!multiLetter && !close(t.duration, m.duration, TIME))
				fails.push(`animation ${JSON.stringify(t.name)} duration ${m.duration} != ${t.duration}`);
			t.poses.forEach((p, i) => comparePose(`${JSON.stringify(t.name)} t=${p.time}`, p, m.poses[i], fails));
		}
		for (const n of myAnims.keys()) if (!names.has(n)) fails.push(`unexpected animation ${JSON.stringify(n)}`);
		if (fails.length === 0) {
			stats.matched++;
			if (orderAside || multiLetter) count(asideKinds, `matched apart from ${differs.filter((d) => !d.startsWith("name")).map((d) => d.split(":")[0]).join(", ")}`);
			continue;
		}
		stats.mismatched++;
		const kind = fails[0].replace(/-?\d+(\.\d+)?(e-?\d+)?/g, "N").replace(/"[^"]*"/g, "S").slice(0, 70);
		count(kinds, kind);
		fs.writeFileSync(path.join(a.out, `${seed}.skel2d`), text);
		fs.writeFileSync(path.join(a.out, `${seed}.txt`), fails.join("\n") + "\n");
		fs.writeFileSync(path.join(a.out, `${seed}.original.json`), JSON.stringify(theirs, null, 1));
		fs.writeFileSync(path.join(a.out, `${seed}.skelpad.json`), run.stdout);
	}
	fs.rmSync(work, { recursive: true, force: true });
	console.log(`seeds ${a.seed}..${a.seed + a.count - 1}: ${stats.ran} scripts ran (${stats.withErrors} with errors), ${stats.matched} matched, ` +
		`${stats.mismatched} mismatched, ${stats.crashed} skelpad failures, ${stats.setAside} set aside; ${checks} pose checks`);
	for (const [k, n] of asideKinds) console.log(`  note: ${n} × ${k}`);
	for (const [k, n] of [...kinds].sort((x, y) => y[1] - x[1])) console.log(`  MISMATCH ${n} × ${k}`);
	if (stats.mismatched + stats.crashed > 0) console.log(`mismatching scripts are in ${a.out}`);
	process.exit(stats.mismatched + stats.crashed > 0 ? 1 : 0);
}

main();
