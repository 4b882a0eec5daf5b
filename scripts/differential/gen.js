// Random Skel2D scripts for the differential test: valid forms of the whole
// language, and slightly broken ones that exercise recovery (lines at the
// wrong depth, over-indented and space-indented lines, bad tokens, broken
// timeline lines at every depth, unclosed loops, bad options, order entries
// followed by text or tabs, skins of missing slots, CRLF, `\` continuations).
"use strict";

function rng(seed) {
	// mulberry32
	let a = seed >>> 0;
	const next = () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const r = {
		next,
		int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
		chance: (p) => next() < p,
		pick: (xs) => xs[Math.floor(next() * xs.length)],
	};
	return r;
}

const ROOTS = ["hip", "arm", "leg", "head", "tail", "fin", "wing", "eye"];
const CHILDREN = ["hand", "foot", "tip", "knee", "jaw", "claw"];
const SLOTS = ["", "s", "hand", "gem", "skin"];
const ATTS = ["a", "b", "c", "on", "off"];
const TYPES = ["rect", "circle", "ellipse", "path", "sprite", ""];

function gen(seed) {
	const r = rng(seed);
	// About a third of the scripts are written without deliberate mistakes.
	const clean = r.chance(0.3);
	const bad = (p) => !clean && r.chance(p);
	const bones = [];
	const slots = []; // {bone, slot, atts: []}
	const lines = [];
	const T = (n) => "\t".repeat(n);

	const num = (signed) => {
		let v = r.pick([0, 1, 2, 3, 5, 10, 15, 45, 90, 0.5, 1.5, 2.25, 30, 7, 12]);
		if (r.chance(0.2)) v = r.int(0, 200) / 10;
		const s = signed && r.chance(0.3) ? "-" : "";
		return s + String(v);
	};
	const color = () => {
		const hex = "0123456789abcdefABCDEF";
		const n = r.chance(0.5) ? 3 : 6;
		let c = "#";
		for (let i = 0; i < n; i++) c += r.pick(hex.split(""));
		if (r.chance(0.3)) c += "," + r.pick(["0", "0.5", "1", "0.25", "2"]);
		return c;
	};
	const junk = () => (clean ? "" : r.pick(["foo", "x", "1", "@", "x1.", "--", ":", "#", "\"q\"", "r+3", "x 1", "{", "}", "->", "1fps", "li", "l-1", "?"]));
	const boneRef = () => {
		if (bones.length === 0 || r.chance(0.05)) return r.pick(ROOTS.concat(CHILDREN));
		const b = r.pick(bones);
		const segs = b.split(".");
		const k = r.int(1, segs.length);
		let ref = segs.slice(segs.length - k).join(".");
		if (r.chance(0.1)) ref = "skeleton." + b;
		if (bad(0.01)) ref = ref.slice(1); // a raw suffix that is no dotted suffix
		return ref;
	};
	const slotRef = () => {
		if (slots.length === 0 || r.chance(0.08)) return r.pick(SLOTS.filter((s) => s) .concat(ROOTS));
		const s = r.pick(slots);
		const full = (s.bone + "." + s.slot).split(".");
		const k = r.int(1, full.length);
		return full.slice(full.length - k).join(".");
	};
	const indentBroken = (depth) => {
		// a line at `depth` whose indentation is slightly wrong
		return r.pick([T(depth) + " ", T(Math.max(depth - 1, 1)) + "  ", T(depth + 1), " "]);
	};
	const comment = () => (r.chance(0.08) ? r.pick([" # note", "\t# note", " #", " #x"]) : "");

	const point = () => {
		let p = num(true) + "," + num(true);
		if (r.chance(0.2)) p += ":" + boneRef();
		if (bad(0.05)) p = r.pick(["1,", ",1", "a,b", "1,2:"]);
		return p;
	};
	const pathCmd = () => {
		const c = r.pick(clean ? ["M", "L", "L", "Q", "B", "C", ":"] : ["M", "L", "L", "Q", "B", "C", ":", "Z"]);
		switch (c) {
			case "M": case "L": return c + " " + point();
			case "Q": return c + " " + point() + " " + point();
			case "B": return c + " " + point() + " " + point() + " " + point();
			case ":": return ": " + boneRef();
			default: return c;
		}
	};
	const attTokens = (type) => {
		const toks = [];
		const n = r.int(0, 4);
		for (let i = 0; i < n; i++) {
			const k = r.pick(["x", "y", "r", "i", "j", "w", "h", "d", "t", "m", "f", "s", "join", "cap", "img", "junk"]);
			if ("xyrij".includes(k)) toks.push(k + num(true));
			else if ("whdtm".includes(k)) toks.push(k + num(false));
			else if (k === "f" || k === "s") toks.push(k + color());
			else if (k === "join") toks.push(r.pick(["miter", "bevel", "round"]) + "-join");
			else if (k === "cap") toks.push(r.pick(["butt", "square", "round"]) + "-cap");
			else if (k === "img") toks.push("\"img.png\"");
			else toks.push(junk());
		}
		return toks;
	};

	const skeletonSection = () => {
		lines.push("skeleton" + (r.chance(0.2) ? " " + color() : "") + (r.chance(0.05) ? " " + junk() : ""));
		const nb = r.int(1, 5);
		for (let i = 0; i < nb; i++) {
			let name;
			if (bones.length > 0 && r.chance(0.35)) name = r.pick(bones) + "." + r.pick(CHILDREN);
			else if (r.chance(0.1) && bones.length > 0) name = r.pick(bones); // reopen
			else name = r.pick(ROOTS) + (r.chance(0.2) ? "." + r.pick(CHILDREN) : "");
			if (bad(0.03)) name = r.pick(["skeleton", name + ".skeleton", "1bad", name + "."]);
			const toks = [name];
			const nt = r.int(0, 4);
			for (let k = 0; k < nt; k++) {
				const t = r.pick(["l", "r", "x", "y", "i", "j", "c", "flip-x", "flip-y", "no-rot", "no-scale", "junk"]);
				if ("lrxyij".includes(t) && t.length === 1) toks.push(t + num(t !== "l" && t !== "i" && t !== "j" || r.chance(0.1)));
				else if (t === "c") toks.push(color());
				else if (t === "junk") toks.push(junk());
				else toks.push(t);
			}
			const broken = bad(0.06);
			lines.push((broken ? indentBroken(1) : "\t") + toks.join(" ") + comment());
			if (!broken && !/^(1bad|skeleton)|\.skeleton|\.$/.test(name) && !bones.includes(name)) bones.push(name);
			const ns = r.int(0, 2);
			for (let s = 0; s < ns; s++) {
				const sl = r.pick(SLOTS);
				const att = r.chance(0.4) ? r.pick(ATTS) : "";
				let head = "@" + sl + (att ? "[" + att + "]" : "");
				if (bad(0.03)) head = r.pick(["@skeleton", "@[skeleton]", "@x y", "@@"]);
				const toks = [head];
				if (r.chance(0.3)) toks.push(color());
				const type = r.pick(TYPES);
				if (type || r.chance(0.5)) toks.push(":" + (type || r.pick(clean ? ["none"] : ["none", "blob"])));
				toks.push(...attTokens(type));
				const brokenSlot = bad(0.05);
				lines.push((brokenSlot ? indentBroken(2) : T(2)) + toks.join(" ") + comment());
				const slotName = sl || name.split(".").pop();
				if (!broken && !brokenSlot) {
					let s0 = slots.find((x) => x.bone === name && x.slot === slotName);
					if (!s0) slots.push((s0 = { bone: name, slot: slotName, atts: [] }));
					s0.atts.push(att || slotName);
				}
				if (type === "path" || r.chance(0.05)) {
					const nc = r.int(0, 4);
					for (let c = 0; c < nc; c++)
						lines.push((bad(0.05) ? indentBroken(3) : T(3)) + pathCmd() + comment());
				}
			}
		}
	};

	const skinSection = () => {
		let head = "skin \"" + r.pick(["s1", "s2", "default"]) + "\"";
		if (bad(0.05)) head = r.pick(["skin s1", "skin", "skin \"s1\" x"]);
		lines.push(head);
		const n = r.int(1, 3);
		for (let i = 0; i < n; i++) {
			let ref = "@" + slotRef();
			if (r.chance(0.5) && slots.length) ref += "[" + r.pick(r.pick(slots).atts.concat(ATTS)) + "]";
			const toks = [ref];
			const type = r.pick(TYPES);
			if (type) toks.push(":" + type);
			toks.push(...attTokens(type));
			lines.push((bad(0.05) ? indentBroken(1) : "\t") + toks.join(" ") + comment());
			if (type === "path") {
				const nc = r.int(0, 3);
				for (let c = 0; c < nc; c++) lines.push(T(2) + pathCmd());
			}
		}
	};

	const orderSection = () => {
		lines.push("order");
		const n = r.int(1, 4);
		for (let i = 0; i < n; i++) {
			let line = "\t@" + slotRef();
			const v = clean ? -1 : r.int(0, 14);
			if (v === 0) line += " extra";
			else if (v === 1) line += "\t";
			else if (v === 2) line += " # c";
			else if (v === 3) line += "\tjunk";
			else if (v === 4) line = indentBroken(1) + "@" + slotRef();
			else if (v === 5) line = "\t" + slotRef();
			else if (v === 6) line += r.pick(["\t# c", "\t #", "\t\t# note"]);
			lines.push(line);
		}
	};

	const opts = (inTimeline) => {
		const f = r.chance(0.5) ? (inTimeline && r.chance(0.3) ? "+" : "") + r.pick(["0", "2", "5", "10", "1.5"]) : "";
		const s = r.chance(0.5) ? r.pick(["1", "2", "5", "0.5", "3"]) : "";
		const e = r.chance(0.5) ? r.pick(clean ? ["li", "si", "so", "sio"] : ["li", "si", "so", "sio", "sio", "xx"]) : "";
		let o = r.pick([`${f}:${s}:${e}`, `${f}:${s}`, `${f}:`, `:${e}`, `${s}:${e}`, `::${e}`, `${f}::${e}`]);
		if (inTimeline) o += r.pick([">", "->", "-->", "--->"]);
		return o;
	};

	const timelineCommands = (prop) => {
		const toks = [];
		const n = r.int(1, 8);
		let depth = 0;
		const value = () => {
			if (prop === "c") return color();
			if (prop === "@") return r.chance(0.2) ? r.pick(ATTS) : (slots.length ? r.pick(r.pick(slots).atts) : "a");
			if (prop === "s" || prop === "t") return r.pick(["true", "false"]);
			if ("rgba".includes(prop) && prop.length === 1 && r.chance(0.7)) return r.pick(["0", "1", "0.5", "0.25"]);
			const v = num(true);
			return r.pick(["", "", "", "+", "*"]) + v;
		};
		for (let i = 0; i < n; i++) {
			const k = r.int(0, 20);
			if (k < 7) toks.push(value());
			else if (k < 12) toks.push(r.pick(["->", "-->", "--->", ">"]));
			else if (k < 14) toks.push(opts(true));
			else if (k === 14 && depth < 2) { toks.push("{"); depth++; }
			else if (k === 15 && (depth > 0 || bad(0.2))) { toks.push(r.pick(["}", "}[0]", "}[2]", "}[3]"])); depth = Math.max(depth - 1, 0); }
			else if (k === 16) toks.push(junk());
			else toks.push(value());
		}
		while (depth > 0 && (clean || r.chance(0.8))) { toks.push(r.pick(["}", "}[2]", "}[0]"])); depth--; }
		return toks;
	};

	const animSection = () => {
		const toks = ["anim"];
		if (r.chance(0.8)) toks.push("\"" + r.pick(["walk", "run", "walk", ""]) + "\"");
		if (r.chance(0.4)) toks.push(r.pick(["10fps", "24fps", "4fps", "30fps"]));
		if (r.chance(0.3)) toks.push(opts(false));
		if (bad(0.05)) toks.push(junk());
		lines.push(toks.join(" "));
		const ni = r.int(1, 4);
		for (let i = 0; i < ni; i++) {
			const isSlot = r.chance(0.35);
			const it = [isSlot ? "@" + slotRef() : boneRef()];
			if (r.chance(0.3)) it.push(opts(false));
			if (bad(0.05)) it.push(junk());
			const badItem = bad(0.06);
			lines.push((badItem ? r.pick(["\t ", "\t1", "\t#x ", " "]) : "\t") + it.join(" ") + comment());
			const nt = r.int(0, 4);
			for (let t = 0; t < nt; t++) {
				const props = isSlot ? ["@", "c", "r", "g", "b", "a"] : ["x", "y", "r", "i", "j", "s", "t"];
				let prop = r.pick(props);
				// Indentation and property are chosen independently, so broken
				// properties also appear on lines the original reads.
				let indent = "\t\t";
				if (bad(0.12)) indent = r.pick(["\t\t\t", "\t\t\t\t", "\t\t\t\t\t", "\t\t ", "\t\t  ", "\t\t\t ", "\t\t \t", "\t\t\t\t\t\t", "\t"]);
				if (bad(0.06)) prop = prop + r.pick(props); // multi-letter: [differs] where the original reads it
				else if (bad(0.04)) prop = r.pick(["q", "xy", "ij", "gba", "rgba", "1", "{", "xx", "@c", "st"]);
				else if (bad(0.03)) prop = prop + r.pick(["-->", "0", ","]); // glued to its first command
				const cmds = timelineCommands(prop.charAt(0));
				let line = indent + prop + r.pick([" ", " ", " ", "\t", "  "]) + cmds.join(" ");
				if (bad(0.04)) line = indent + prop; // no commands
				if (bad(0.03)) line = indent + prop + " " + r.pick(["", "#", "# x"]);
				lines.push(line + comment());
			}
		}
	};

	const nsec = r.int(1, 6);
	skeletonSection();
	for (let i = 0; i < nsec; i++) {
		const k = r.int(0, clean ? 10 : 12);
		if (k < 3) skeletonSection();
		else if (k < 5) skinSection();
		else if (k < 6) orderSection();
		else if (k < 11) animSection();
		else lines.push(r.pick(["foo", "#text", " indented", "skin name", "anim\"x\"", "\t\tstray 1"]));
		if (r.chance(0.05)) lines.push("");
		if (r.chance(0.03)) lines.push("# comment");
	}
	// A mutation pass on about a third of the other scripts: small edits
	// anywhere (indentation, whitespace kinds, split and joined lines,
	// comments, swapped or repeated lines, odd numbers) that reach parts of
	// the recovery rules the section writers above do not aim at.
	if (!clean && r.chance(0.5)) {
		const n = r.int(1, 4);
		const spaces = ["\u00a0", "\u3000", "\u2009", "\ufeff", "\v", "\f", "\r", " \t", "\t"];
		for (let m = 0; m < n && lines.length > 0; m++) {
			const i = r.int(0, lines.length - 1);
			const l = lines[i];
			const sp = l.indexOf(" ");
			switch (r.int(0, 13)) {
				case 0: lines[i] = "\t" + l; break;
				case 1: lines[i] = l.replace(/^\t/, ""); break;
				case 2: lines[i] = l.replace(/^\t/, "    "); break;
				case 3: if (sp >= 0) lines[i] = l.slice(0, sp) + r.pick(spaces) + l.slice(sp + 1); break;
				case 4: lines[i] = l + r.pick(spaces) + r.pick(["", "#", "# c", "x"]); break;
				case 5: lines[i] = l + "\\"; break;
				case 6: if (sp >= 0) lines[i] = l.slice(0, sp) + " # " + l.slice(sp + 1); break;
				case 7: lines.splice(i, 0, l); break;
				case 8: if (i + 1 < lines.length) lines.splice(i, 2, lines[i + 1], l); break;
				case 9: lines[i] = l.replace(/\b(\d+)(\.\d+)?\b/, r.pick(["01", "1.", "0.0", "00", "-0", "1e2", "1.2.3"])); break;
				case 10: lines[i] = l.replace(/ /, "  "); break;
				case 11: lines.splice(i, 0, r.pick(["\t\t\t# deep comment", "\t", "\t\t", " ", "#", "\t\t\\"])); break;
				case 12: lines[i] = l.replace(/->/, r.pick(["- >", "=>", "->->", "-->>", ">>"])); break;
				default: lines[i] = l.replace(/[{}]/, r.pick(["{{", "}}", "} [2]", "}[-1]", "}[1.5]", "}[99]"])); break;
			}
		}
	}
	// whole-text variations
	let text;
	if (r.chance(0.05)) text = lines.join("\r\n");
	else if (r.chance(0.05)) {
		// split one line with a `\` continuation
		const i = r.int(0, lines.length - 1);
		const l = lines[i];
		const cut = l.indexOf(" ");
		if (cut > 0) lines[i] = l.slice(0, cut) + "\\\n" + l.slice(cut + 1);
		text = lines.join("\n");
	} else text = lines.join("\n");
	return text + (r.chance(0.5) ? "\n" : "");
}

module.exports = { gen };

if (require.main === module) {
	const seed = Number(process.argv[2] || 1);
	process.stdout.write(gen(seed));
}
