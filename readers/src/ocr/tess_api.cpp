#include "tess_api.hpp"

#include "../dl_symbol.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace mcpread::readers::ocr {
namespace {

constexpr const char* needs =
    "OCR needs libtesseract 5 (Debian packages libtesseract5 and tesseract-ocr-eng, or another "
    "tesseract-ocr-* language): ";

struct Loaded {
  Api api{};
  std::string error;  // empty when api is usable
};

template <typename Fn>
bool bind(void* lib, const char* name, Fn* slot, std::string* error) {
  if (load_symbol(lib, name, slot)) return true;
  *error = std::string(needs) + "the library found has no " + name + ".";
  return false;
}

Loaded load() {
  Loaded l;
  void* lib = ::dlopen("libtesseract.so.5", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = ::dlerror();
    l.error = std::string(needs) + (why != nullptr ? why : "libtesseract.so.5 cannot be loaded") + ".";
    return l;
  }
  Api& a = l.api;
  std::string& e = l.error;
  const bool ok =
      bind(lib, "TessVersion", &a.version, &e) && bind(lib, "TessDeleteText", &a.delete_text, &e) &&
      bind(lib, "TessBaseAPICreate", &a.create, &e) && bind(lib, "TessBaseAPIDelete", &a.destroy, &e) &&
      bind(lib, "TessBaseAPIInit3", &a.init3, &e) &&
      bind(lib, "TessBaseAPISetVariable", &a.set_variable, &e) &&
      bind(lib, "TessBaseAPISetPageSegMode", &a.set_page_seg_mode, &e) &&
      bind(lib, "TessBaseAPISetImage2", &a.set_image2, &e) &&
      bind(lib, "TessBaseAPISetSourceResolution", &a.set_source_resolution, &e) &&
      bind(lib, "TessBaseAPIRecognize", &a.recognize, &e) &&
      bind(lib, "TessBaseAPIGetUTF8Text", &a.get_utf8_text, &e) &&
      bind(lib, "TessBaseAPIMeanTextConf", &a.mean_text_conf, &e) &&
      bind(lib, "TessBaseAPIDetectOrientationScript", &a.detect_orientation_script, &e) &&
      bind(lib, "TessMonitorCreate", &a.monitor_create, &e) &&
      bind(lib, "TessMonitorDelete", &a.monitor_delete, &e) &&
      bind(lib, "TessMonitorSetCancelFunc", &a.monitor_set_cancel_func, &e) &&
      bind(lib, "TessMonitorSetCancelThis", &a.monitor_set_cancel_this, &e) &&
      bind(lib, "pixReadMem", &a.pix_read_mem, &e) &&
      bind(lib, "pixReadHeaderMem", &a.pix_read_header_mem, &e) &&
      bind(lib, "pixDestroy", &a.pix_destroy, &e) && bind(lib, "pixConvertTo8", &a.pix_convert_to8, &e) &&
      bind(lib, "pixRotateOrth", &a.pix_rotate_orth, &e) && bind(lib, "pixGetData", &a.pix_get_data, &e) &&
      bind(lib, "pixGetWpl", &a.pix_get_wpl, &e) && bind(lib, "pixGetWidth", &a.pix_get_width, &e) &&
      bind(lib, "pixGetHeight", &a.pix_get_height, &e) && bind(lib, "pixGetDepth", &a.pix_get_depth, &e) &&
      bind(lib, "pixCreate", &a.pix_create, &e) && bind(lib, "setMsgSeverity", &a.set_msg_severity, &e);
  // Leptonica writes its errors ("Error in pixReadMem: ...") to stderr, which belongs to the
  // server's log; the failures are reported in the answer instead.
  if (ok) a.set_msg_severity(L_SEVERITY_NONE);
  return l;
}

bool is_directory(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> traineddata_names() {
  std::vector<std::string> out;
  DIR* dir = ::opendir(tessdata_directory().c_str());
  if (dir == nullptr) return out;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    constexpr std::string_view suffix = ".traineddata";
    if (name.size() > suffix.size() && name.ends_with(suffix)) out.push_back(name.substr(0, name.size() - suffix.size()));
  }
  ::closedir(dir);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

const Api* api(std::string* error) {
  static const Loaded loaded = load();
  if (!loaded.error.empty()) {
    if (error != nullptr) *error = loaded.error;
    return nullptr;
  }
  return &loaded.api;
}

std::string tessdata_directory() {
  if (const char* prefix = std::getenv("TESSDATA_PREFIX"); prefix != nullptr && *prefix != '\0') {
    std::string dir = prefix;
    while (dir.size() > 1 && dir.ends_with('/')) dir.pop_back();
    if (is_directory(dir + "/tessdata")) return dir + "/tessdata";
    return dir;
  }
  return "/usr/share/tesseract-ocr/5/tessdata";
}

std::vector<std::string> installed_languages() {
  std::vector<std::string> out;
  for (auto& name : traineddata_names())
    if (name != "osd" && name != "equ") out.push_back(std::move(name));
  return out;
}

bool has_orientation_data() {
  const auto names = traineddata_names();
  return std::find(names.begin(), names.end(), "osd") != names.end();
}

}  // namespace mcpread::readers::ocr
