#pragma once
// A quick look at a picture before Tesseract reads it: blank, noise, a photograph, or ink that
// may be text. Tesseract takes seconds on a photograph (12 s on a 40-megapixel page) to find a
// few characters of garbage; the look takes milliseconds.
#include "tess_api.hpp"

namespace mcpread::readers::ocr {

enum class Look {
  blank,       // one flat colour, give or take a speck
  textured,    // noise or grain all over: no background to hold text
  photograph,  // tones spread over the whole range, or soft shading with nothing sharp: no text
  inked,       // a background with marks on it: text, maybe
};

Look look_of(const Api& a, ::Pix* pix);

}  // namespace mcpread::readers::ocr
