#include "tess_api.hpp"

#include "mcpread/common/lazy_library.hpp"

#include "dir_scan.hpp"
#include "install_tree.hpp"
#include "mcpread/common/ascii.hpp"
#include "mcpread/common/platform.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

// The soname is the major version of the headers built against (5 on bookworm, 4 on bullseye,
// where the portable bundle is built); tesseract 4 calls the header tess_version.h.
#if __has_include(<tesseract/version.h>)
#include <tesseract/version.h>
#else
#include <tesseract/tess_version.h>
#endif
#define MCPREAD_TESS_STR2(x) #x
#define MCPREAD_TESS_STR(x) MCPREAD_TESS_STR2(x)
#define MCPREAD_TESS_MAJOR MCPREAD_TESS_STR(TESSERACT_MAJOR_VERSION)

namespace mcpread::readers::ocr {
namespace {

const LazyLibrary<Api>& library() {
  static const LazyLibrary<Api> lib(
#if defined(_WIN32)
      {.needs = "OCR needs libtesseract-" MCPREAD_TESS_MAJOR ".dll beside mcp-read.exe and its languages in "
                "share\\tessdata (the Windows bundle ships both)",
#else
      {.needs = "OCR needs libtesseract " MCPREAD_TESS_MAJOR " (Debian packages libtesseract" MCPREAD_TESS_MAJOR
                " and tesseract-ocr-eng, or another tesseract-ocr-* language)",
#endif
       .candidates = {"libtesseract.so." MCPREAD_TESS_MAJOR}},
      [](SymbolBinder& bind, Api& a) {
        const bool ok =
            bind(&a.version, "TessVersion") && bind(&a.delete_text, "TessDeleteText") &&
            bind(&a.create, "TessBaseAPICreate") && bind(&a.destroy, "TessBaseAPIDelete") &&
            bind(&a.init3, "TessBaseAPIInit3") && bind(&a.set_variable, "TessBaseAPISetVariable") &&
            bind(&a.set_page_seg_mode, "TessBaseAPISetPageSegMode") && bind(&a.set_image2, "TessBaseAPISetImage2") &&
            bind(&a.set_source_resolution, "TessBaseAPISetSourceResolution") &&
            bind(&a.recognize, "TessBaseAPIRecognize") && bind(&a.get_utf8_text, "TessBaseAPIGetUTF8Text") &&
            bind(&a.mean_text_conf, "TessBaseAPIMeanTextConf") &&
            bind(&a.detect_orientation_script, "TessBaseAPIDetectOrientationScript") &&
            bind(&a.monitor_create, "TessMonitorCreate") && bind(&a.monitor_delete, "TessMonitorDelete") &&
            bind(&a.monitor_set_cancel_func, "TessMonitorSetCancelFunc") &&
            bind(&a.monitor_set_cancel_this, "TessMonitorSetCancelThis") &&
            // Leptonica, a dependency of libtesseract: dlsym on the tesseract handle finds it.
            bind(&a.pix_read_mem, "pixReadMem") && bind(&a.pix_read_header_mem, "pixReadHeaderMem") &&
            bind(&a.pix_destroy, "pixDestroy") && bind(&a.pix_convert_to8, "pixConvertTo8") &&
            bind(&a.pix_rotate_orth, "pixRotateOrth") && bind(&a.pix_get_data, "pixGetData") &&
            bind(&a.pix_get_wpl, "pixGetWpl") && bind(&a.pix_get_width, "pixGetWidth") &&
            bind(&a.pix_get_height, "pixGetHeight") && bind(&a.pix_get_depth, "pixGetDepth") &&
            bind(&a.pix_create, "pixCreate") && bind(&a.set_msg_severity, "setMsgSeverity");
        // Leptonica writes its errors ("Error in pixReadMem: ...") to stderr, which belongs to the
        // server's log; the failures are reported in the answer instead.
        if (ok) a.set_msg_severity(L_SEVERITY_NONE);
        return ok;
      });
  return lib;
}

bool is_directory(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_directory(platform::path_from_utf8(path), ec);
}

std::vector<std::string> traineddata_names() {
  std::vector<std::string> out;
  (void)dir_scan::scan(platform::path_from_utf8(tessdata_directory()), [&](std::string_view name, bool) {
    constexpr std::string_view suffix = ".traineddata";
    if (name.size() > suffix.size() && name.ends_with(suffix)) out.emplace_back(name.substr(0, name.size() - suffix.size()));
    return true;
  });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

const Api* api(std::string* error) {
  std::string why;
  const Api* loaded = library().get(&why);
  if (loaded == nullptr && error != nullptr) *error = why + ".";
  return loaded;
}

std::string tessdata_directory() {
  if (const char* prefix = std::getenv("TESSDATA_PREFIX"); prefix != nullptr && *prefix != '\0') {
    std::string dir = prefix;
    while (dir.size() > 1 && dir.ends_with('/')) dir.pop_back();
    if (is_directory(dir + "/tessdata")) return dir + "/tessdata";
    return dir;
  }
#if defined(_WIN32)
  // The Windows bundle: share\tessdata beside bin\, mcp-read.exe's folder (no system folder
  // holds tesseract's data there), named without "bin\.." since messages show it.
  if (const std::string exe = executable_directory(); !exe.empty())
    return platform::path_to_utf8(platform::path_from_utf8(exe).parent_path() / "share" / "tessdata");
#endif
#if TESSERACT_MAJOR_VERSION >= 5
  return "/usr/share/tesseract-ocr/5/tessdata";
#else
  return "/usr/share/tesseract-ocr/4.00/tessdata";  // Debian's libtesseract4 (bullseye)
#endif
}

std::string language_package(std::string_view lang) {
  std::string package = "tesseract-ocr-" + common::ascii_lower(lang);
  std::replace(package.begin(), package.end(), '_', '-');
  return package;
}

std::string traineddata_hint(const std::vector<std::string>& langs) {
  std::string files;
  for (const auto& lang : langs) files += (files.empty() ? "" : ", ") + lang + ".traineddata";
  return "put " + files + " from Tesseract's tessdata in " + tessdata_directory();
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
