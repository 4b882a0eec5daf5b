// Prints the sprites SpriterPlusPlus draws for every entity and animation of
// one .scml/.scon file, as JSON, in Spriter's native space (x right, y up,
// angles counterclockwise). Built against SpriterPlusPlus by
// scripts/spriter-reference.sh; skelpad's tests compare its own `pose --draw`
// output with what this prints (tests/spriter_reference/*.json).
//
// Usage: driver FILE [MAP...]   (MAP: character map names; each gets a
// further run of every animation with that map applied)

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "spriterengine/spriterengine.h"
#include "spriterengine/global/settings.h"
#include "spriterengine/override/filefactory.h"
#include "spriterengine/override/imagefile.h"
#include "spriterengine/override/objectfactory.h"
#include "spriterengine/objectinfo/universalobjectinterface.h"
#include "example/override/pugixmlspriterfiledocumentwrapper.h"
#include "example/override/jsonspriterfiledocumentwrapper.h"

using namespace SpriterEngine;

static std::string g_dir;
static std::string g_out;
static bool g_first_draw = true;
static int g_errors = 0;

static void on_error(const std::string &msg) {
	std::fprintf(stderr, "spriter: %s\n", msg.c_str());
	++g_errors;
}

static std::string json_str(const std::string &s) {
	std::string o = "\"";
	for (char c : s) {
		if (c == '"' || c == '\\') { o += '\\'; o += c; }
		else if ((unsigned char)c < 0x20) { char b[8]; std::snprintf(b, sizeof b, "\\u%04x", c); o += b; }
		else o += c;
	}
	return o + "\"";
}

static std::string num(double v) {
	char b[64];
	std::snprintf(b, sizeof b, "%.9g", v);
	return b;
}

class RecordingImage : public ImageFile {
public:
	RecordingImage(const std::string &path, point pivot) : ImageFile(path, pivot) {}
	void renderSprite(UniversalObjectInterface *info) override {
		// SPP works in y-down space with reversed angles: undo that.
		point p = info->getPosition();
		point s = info->getScale();
		point pv = info->getPivot();
		double th = -info->getAngle();
		double x = p.x, y = -p.y;
		double a = s.x * std::cos(th), b = s.x * std::sin(th);
		double c = -s.y * std::sin(th), d = s.y * std::cos(th);
		std::string rel = path();
		if (rel.compare(0, g_dir.size(), g_dir) == 0) rel = rel.substr(g_dir.size());
		if (!g_first_draw) g_out += ",";
		g_first_draw = false;
		g_out += "{\"image\":" + json_str(rel) + ",\"world\":[" + num(a) + "," + num(b) + "," + num(c) + "," + num(d) + "," +
			num(x) + "," + num(y) + "],\"pivot\":[" + num(pv.x) + "," + num(1.0 - pv.y) + "],\"alpha\":" + num(info->getAlpha()) + "}";
	}
};

class RecordingFiles : public FileFactory {
public:
	ImageFile *newImageFile(const std::string &path, point pivot, atlasdata) override { return new RecordingImage(path, pivot); }
	SpriterFileDocumentWrapper *newScmlDocumentWrapper() override { return new PugiXmlSpriterFileDocumentWrapper(); }
	SpriterFileDocumentWrapper *newSconDocumentWrapper() override { return new JSONSpriterFileDocumentWrapper(); }
};

int main(int argc, char **argv) {
	if (argc < 2) {
		std::fprintf(stderr, "usage: %s FILE.scml|FILE.scon [CHARACTER_MAP...]\n", argv[0]);
		return 2;
	}
	Settings::setErrorFunction(on_error);
	std::string file = argv[1];
	size_t slash = file.find_last_of('/');
	g_dir = slash == std::string::npos ? "" : file.substr(0, slash + 1);
	std::vector<std::string> maps;
	maps.push_back("");
	for (int i = 2; i < argc; ++i) maps.push_back(argv[i]);

	SpriterModel model(file, new RecordingFiles(), new ObjectFactory());
	std::string out = "{\"reference\":\"SpriterPlusPlus\",\"entities\":[";
	Settings::setErrorFunction(Settings::nullError);
	for (int e = 0;; ++e) {
		EntityInstance *probe = model.getNewEntityInstance(e);
		if (!probe) break;
		Settings::setErrorFunction(on_error);
		if (e) out += ",";
		out += "{\"name\":" + json_str(probe->currentEntityName()) + ",\"runs\":[";
		int n = probe->animationCount();
		bool first_run = true;
		for (const std::string &map : maps) {
			for (int a = 0; a < n; ++a) {
				probe->setCurrentAnimation(a);
				std::string name = probe->currentAnimationName();
				// The length, from the time ratio at a small time.
				probe->setCurrentTime(0.001);
				double ratio = probe->getTimeRatio();
				double length = ratio > 0 ? std::round(0.001 / ratio * 1e6) / 1e6 : 0.0;
				std::vector<double> times;
				for (int k = 0; k < 10; ++k) times.push_back(k * length / 10.0);
				for (int k = 0; k < 10; ++k) times.push_back((k + 0.37) * length / 10.0);
				times.push_back(length * 0.999);
				if (!first_run) out += ",";
				first_run = false;
				out += "{\"animation\":" + json_str(name) + ",\"character_map\":" + (map.empty() ? std::string("null") : json_str(map)) +
					",\"length_ms\":" + num(length) + ",\"poses\":[";
				for (size_t i = 0; i < times.size(); ++i) {
					// A fresh instance per time: nothing carries over from an earlier one.
					EntityInstance *inst = model.getNewEntityInstance(e);
					inst->setCurrentAnimation(a);
					if (!map.empty()) inst->applyCharacterMap(map);
					inst->setCurrentTime(times[i]);
					g_out.clear();
					g_first_draw = true;
					inst->render();
					if (i) out += ",";
					out += "{\"time_ms\":" + num(times[i]) + ",\"draw\":[" + g_out + "]}";
					delete inst;
				}
				out += "]}";
			}
		}
		out += "]}";
		delete probe;
		Settings::setErrorFunction(Settings::nullError);
	}
	out += "]}";
	std::printf("%s\n", out.c_str());
	if (g_errors) std::fprintf(stderr, "%d error(s) reported by SpriterPlusPlus\n", g_errors);
	return 0;
}
