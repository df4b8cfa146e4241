#pragma once
// The image reader's signatures: the raster formats it recognises by their first bytes, SVG and
// plain Netpbm among clean text, and the formats ImageMagick may decode.
#include "mcpread/readers/registry.hpp"

#include <optional>
#include <span>

namespace mcpread::readers::image_signatures {

// PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, JPEG XL, HEIC/HEIF/AVIF, JBIG2; among clean text, an SVG
// document or a plain (ASCII) Netpbm picture.
std::optional<Sniffed> sniff(const SniffInput& in);

// Raster formats only ImageMagick reads (in this libvips) whose coders decode pixels and nothing
// else: BMP, PSD, ICO and CUR, SGI, Sun raster, PCX. ImageMagick also reads script-like formats
// (MVG, MSL, TEXT) that can pull in other files, so other data never reaches it.
bool magick_raster(std::span<const unsigned char> head);
// Which of those `head` starts as ("BMP", "ICO", "Sun raster", ...); empty for anything else.
std::string_view magick_raster_format(std::span<const unsigned char> head);

// True when the first element of this (UTF-8) text is <svg>, after an optional BOM, XML
// declaration, processing instructions, comments and DOCTYPE (with an internal subset).
bool is_svg(std::span<const unsigned char> head);

}  // namespace mcpread::readers::image_signatures
