#pragma once
// libtesseract 5 and Leptonica (its image library), loaded with dlopen on the first OCR so that
// start-up and idle memory do not pay for them (tens of libraries, ~20 MB once a model is read).
// <tesseract/capi.h> and <leptonica/allheaders.h> are included for types and prototypes only;
// every call goes through the pointers below.
#include <leptonica/allheaders.h>
// Tesseract 4's C header (Debian bullseye's, which the portable bundle is built with) declares
// TessBaseAPIDetectOrientationScript and the tesseract:: page segmentation modes only along with
// its C++ API; tesseract 5 always does.
#if !__has_include(<tesseract/version.h>) && !defined(TESS_CAPI_INCLUDE_BASEAPI)
#define TESS_CAPI_INCLUDE_BASEAPI
#endif
#include <tesseract/capi.h>

#include <string>
#include <string_view>
#include <vector>

namespace mcpread::readers::ocr {

struct Api {
  decltype(&::TessVersion) version;
  decltype(&::TessDeleteText) delete_text;
  decltype(&::TessBaseAPICreate) create;
  decltype(&::TessBaseAPIDelete) destroy;
  decltype(&::TessBaseAPIInit3) init3;
  decltype(&::TessBaseAPISetVariable) set_variable;
  decltype(&::TessBaseAPISetPageSegMode) set_page_seg_mode;
  decltype(&::TessBaseAPISetImage2) set_image2;
  decltype(&::TessBaseAPISetSourceResolution) set_source_resolution;
  decltype(&::TessBaseAPIRecognize) recognize;
  decltype(&::TessBaseAPIGetUTF8Text) get_utf8_text;
  decltype(&::TessBaseAPIMeanTextConf) mean_text_conf;
  decltype(&::TessBaseAPIDetectOrientationScript) detect_orientation_script;
  decltype(&::TessMonitorCreate) monitor_create;
  decltype(&::TessMonitorDelete) monitor_delete;
  decltype(&::TessMonitorSetCancelFunc) monitor_set_cancel_func;
  decltype(&::TessMonitorSetCancelThis) monitor_set_cancel_this;
  // Leptonica, a dependency of libtesseract: dlsym on the tesseract handle finds it.
  decltype(&::pixReadMem) pix_read_mem;
  decltype(&::pixReadHeaderMem) pix_read_header_mem;
  decltype(&::pixDestroy) pix_destroy;
  decltype(&::pixConvertTo8) pix_convert_to8;
  decltype(&::pixRotateOrth) pix_rotate_orth;
  decltype(&::pixGetData) pix_get_data;
  decltype(&::pixGetWpl) pix_get_wpl;
  decltype(&::pixGetWidth) pix_get_width;
  decltype(&::pixGetHeight) pix_get_height;
  decltype(&::pixGetDepth) pix_get_depth;
  decltype(&::pixCreate) pix_create;
  decltype(&::setMsgSeverity) set_msg_severity;
};

// The libraries, loaded once; nullptr when they cannot be, *error then saying why and what to
// install. They stay loaded for the life of the process.
const Api* api(std::string* error);

// Where the language data is: $TESSDATA_PREFIX when set (a directory of *.traineddata files, or
// one holding tessdata/), else Debian's /usr/share/tesseract-ocr/5/tessdata.
std::string tessdata_directory();

// What a note tells a user to install for the Tesseract languages `langs` (chi_sim, rus): Debian's
// package of each ("tesseract-ocr-chi-sim"); on Windows, where there are none, "put
// chi_sim.traineddata from Tesseract's tessdata in <tessdata_directory()>".
std::string language_package(std::string_view lang);
std::string traineddata_hint(const std::vector<std::string>& langs);

// The languages whose data is installed there, sorted ("eng", "deu", ...), without the
// orientation model (osd) and the equation model (equ), which read no text.
std::vector<std::string> installed_languages();
// Whether the orientation and script model (osd.traineddata) is installed.
bool has_orientation_data();

// Owns a Pix.
class Pix {
 public:
  Pix() = default;
  Pix(const Api* api, ::Pix* pix) : api_(api), pix_(pix) {}
  Pix(Pix&& o) noexcept : api_(o.api_), pix_(o.pix_) { o.pix_ = nullptr; }
  Pix& operator=(Pix&& o) noexcept {
    std::swap(api_, o.api_);
    std::swap(pix_, o.pix_);
    return *this;
  }
  Pix(const Pix&) = delete;
  Pix& operator=(const Pix&) = delete;
  ~Pix() {
    if (pix_ != nullptr) api_->pix_destroy(&pix_);
  }
  [[nodiscard]] ::Pix* get() const { return pix_; }
  [[nodiscard]] explicit operator bool() const { return pix_ != nullptr; }

 private:
  const Api* api_ = nullptr;
  ::Pix* pix_ = nullptr;
};

}  // namespace mcpread::readers::ocr
