// File kinds from magic bytes, the extension and libmagic.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <string_view>

#include "mcpread/readers/classify.hpp"

using mcpread::readers::Classification;
using mcpread::readers::classify;
using mcpread::readers::FileKind;
using mcpread::readers::parse_file_kind;
using mcpread::readers::to_string;
using namespace std::string_literals;

namespace {

// The whole of `bytes` is the file; `size` defaults to its length.
Classification cls(std::string_view name, const std::string& bytes, std::uint64_t size = ~0ULL) {
  const std::span<const unsigned char> head(reinterpret_cast<const unsigned char*>(bytes.data()),
                                            bytes.size());
  return classify(name, head, size == ~0ULL ? bytes.size() : size);
}

void check_kind(const Classification& c, FileKind kind, std::string_view mime) {
  CHECK(to_string(c.kind) == to_string(kind));
  CHECK(c.mime == mime);
  CHECK_FALSE(c.extension_kind.has_value());
}

std::string mp3_frame() {  // MPEG-1 layer III, 128 kbit/s, 44.1 kHz: 417 bytes
  return "\xFF\xFB\x90\x64"s + std::string(413, '\0');
}

}  // namespace

TEST_CASE("classify: kind names") {
  SUBCASE("to_string") {
    CHECK(to_string(FileKind::text) == "text");
    CHECK(to_string(FileKind::image) == "image");
    CHECK(to_string(FileKind::pdf) == "pdf");
    CHECK(to_string(FileKind::notebook) == "notebook");
    CHECK(to_string(FileKind::audio) == "audio");
    CHECK(to_string(FileKind::binary) == "binary");
  }
  SUBCASE("parse_file_kind accepts the selectable kinds") {
    for (FileKind k : {FileKind::text, FileKind::image, FileKind::pdf, FileKind::notebook,
                       FileKind::audio}) {
      FileKind got = FileKind::binary;
      CHECK(parse_file_kind(to_string(k), &got));
      CHECK(got == k);
    }
  }
  SUBCASE("auto, binary and unknown names are not kinds and leave the output alone") {
    for (std::string_view name : {"auto", "binary", "Text", "", "video"}) {
      FileKind got = FileKind::pdf;
      CHECK_FALSE(parse_file_kind(name, &got));
      CHECK(got == FileKind::pdf);
    }
  }
}

TEST_CASE("classify: images by their magic bytes") {
  SUBCASE("PNG") { check_kind(cls("a.png", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR"s), FileKind::image, "image/png"); }
  SUBCASE("JPEG") { check_kind(cls("a.jpg", "\xFF\xD8\xFF\xE0\0\x10JFIF\0"s), FileKind::image, "image/jpeg"); }
  SUBCASE("GIF") {
    check_kind(cls("a.gif", "GIF89a\x01\0\x01\0"s), FileKind::image, "image/gif");
    check_kind(cls("a.gif", "GIF87a\x01\0\x01\0"s), FileKind::image, "image/gif");
  }
  SUBCASE("WebP") { check_kind(cls("a.webp", "RIFF\x1a\0\0\0WEBPVP8L"s), FileKind::image, "image/webp"); }
  SUBCASE("BMP needs a plausible header") {
    check_kind(cls("a.bmp", "BM\x46\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0"s),
               FileKind::image, "image/bmp");
    check_kind(cls("cars", "BMW and Audi make cars.\n"), FileKind::text, "text/plain");
  }
  SUBCASE("TIFF, both byte orders") {
    check_kind(cls("a.tif", "II*\0\x08\0\0\0"s), FileKind::image, "image/tiff");
    check_kind(cls("a.tif", "MM\0*\0\0\0\x08"s), FileKind::image, "image/tiff");
    check_kind(cls("big.tif", "II+\0\x08\0\0\0"s), FileKind::image, "image/tiff");  // BigTIFF
  }
  SUBCASE("ICO") {
    check_kind(cls("favicon.ico",
                   "\0\0\1\0\1\0\x10\x10\0\0\1\0\x20\0\x68\x04\0\0\x16\0\0\0"s),
               FileKind::image, "image/x-icon");
  }
  SUBCASE("HEIC, HEIF and AVIF from the ftyp brands") {
    check_kind(cls("a.heic", "\0\0\0\x18" "ftypheic\0\0\0\0mif1heic"s), FileKind::image, "image/heic");
    check_kind(cls("a.heic", "\0\0\0\x18" "ftypmif1\0\0\0\0mif1heic"s), FileKind::image, "image/heic");
    check_kind(cls("a.heif", "\0\0\0\x14" "ftypmif1\0\0\0\0mif1\0\0\0\0"s), FileKind::image, "image/heif");
    check_kind(cls("a.avif", "\0\0\0\x1c" "ftypavif\0\0\0\0avifmif1miaf"s), FileKind::image,
               "image/avif");
  }
  SUBCASE("JPEG XL, codestream and container") {
    check_kind(cls("a.jxl", "\xFF\x0A\xFA\x7F"s), FileKind::image, "image/jxl");
    check_kind(cls("a.jxl", "\0\0\0\x0CJXL \r\n\x87\n\0\0\0\x14" "ftypjxl "s), FileKind::image,
               "image/jxl");
  }
}

TEST_CASE("classify: SVG is an image when its first element is <svg>") {
  const std::string illustrator =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
      "<!-- Generator: Adobe Illustrator 24.0.0 -->\n"
      "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"svg11.dtd\" [\n"
      "  <!ENTITY ns_svg \"http://www.w3.org/2000/svg\">\n]>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></svg>\n";
  check_kind(cls("logo.svg", illustrator), FileKind::image, "image/svg+xml");
  check_kind(cls("logo.txt", "<svg><rect/></svg>"), FileKind::image, "image/svg+xml");
  SUBCASE("not when another element comes first") {
    const auto c = cls("page.svg", "<html><body><svg></svg></body></html>\n");
    CHECK(c.kind == FileKind::text);
    CHECK(c.extension_kind == FileKind::image);
  }
  SUBCASE("not for an element that merely starts with svg") {
    CHECK(cls("x.xml", "<svgfoo/>").kind == FileKind::text);
  }
}

TEST_CASE("classify: PDF") {
  check_kind(cls("a.pdf", "%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n"), FileKind::pdf, "application/pdf");
  SUBCASE("after a binary preamble") {
    check_kind(cls("job", "\x1b%-12345X@PJL\r\n%PDF-1.4\n%\xE2\xE3\xCF\xD3\n"), FileKind::pdf,
               "application/pdf");
  }
  SUBCASE("a text that quotes the signature is still text") {
    check_kind(cls("notes.md", "# Notes\nA PDF starts with %PDF-1.7 in its header.\n"),
               FileKind::text, "text/markdown");
  }
}

TEST_CASE("classify: audio by its magic bytes") {
  SUBCASE("WAV") { check_kind(cls("a.wav", "RIFF\x24\x08\0\0WAVEfmt \x10\0\0\0"s), FileKind::audio, "audio/wav"); }
  SUBCASE("FLAC") { check_kind(cls("a.flac", "fLaC\0\0\0\x22"s), FileKind::audio, "audio/flac"); }
  SUBCASE("Ogg") {
    check_kind(cls("a.ogg", "OggS\0\x02\0\0\0\0\0\0\0\0\x01vorbis"s), FileKind::audio, "audio/ogg");
  }
  SUBCASE("MP3 with an ID3 tag") {
    check_kind(cls("a.mp3", "ID3\x04\0\0\0\0\0\x0a"s + std::string(10, '\0')), FileKind::audio,
               "audio/mpeg");
  }
  SUBCASE("MP3 frames") {
    check_kind(cls("a.mp3", mp3_frame() + mp3_frame()), FileKind::audio, "audio/mpeg");
    CHECK(cls("a.mp3", mp3_frame() + std::string(100, '\x01')).kind != FileKind::audio);
    CHECK(cls("x", "\xFF\xFF\x90\x64"s + std::string(500, '\0')).kind != FileKind::audio);
  }
  SUBCASE("M4A") {
    check_kind(cls("a.m4a", "\0\0\0\x20" "ftypM4A \0\0\0\0M4A mp42isom\0\0\0\0"s), FileKind::audio,
               "audio/mp4");
    const std::string mp42 = "\0\0\0\x18" "ftypmp42\0\0\0\0mp42isom"s + std::string(100, '\0');
    check_kind(cls("song.m4a", mp42), FileKind::audio, "audio/mp4");
    CHECK(cls("video.mp4", mp42).kind == FileKind::binary);
  }
  SUBCASE("AAC in ADTS frames") {
    check_kind(cls("a.aac", "\xFF\xF1\x50\x80\x02\x1F\xFC"s), FileKind::audio, "audio/aac");
    check_kind(cls("a.aac", "\xFF\xF9\x50\x80\x02\x1F\xFC"s), FileKind::audio, "audio/aac");
  }
}

TEST_CASE("classify: notebooks") {
  check_kind(cls("analysis.ipynb", "\xEF\xBB\xBF  {\n \"cells\": []\n}"), FileKind::notebook,
             "application/x-ipynb+json");
  SUBCASE("a .ipynb that is not JSON is text") {
    const auto c = cls("analysis.ipynb", "not a notebook\n");
    CHECK(c.kind == FileKind::text);
    CHECK(c.extension_kind == FileKind::notebook);
  }
  SUBCASE("JSON with another name is text") {
    check_kind(cls("data.json", "{\"cells\": []}"), FileKind::text, "application/json");
  }
}

TEST_CASE("classify: magic bytes win over the extension") {
  SUBCASE("PNG bytes named .txt") {
    check_kind(cls("photo.txt", "\x89PNG\r\n\x1a\n\0\0\0\rIHDR"s), FileKind::image, "image/png");
  }
  SUBCASE("text named .png") {
    const auto c = cls("x.png", "just some text\n");
    CHECK(c.kind == FileKind::text);
    CHECK(c.mime == "text/plain");
    CHECK(c.extension_kind == FileKind::image);
  }
  SUBCASE("a PDF named .mp3") {
    const auto c = cls("x.mp3", "%PDF-1.4\n");
    CHECK(c.kind == FileKind::pdf);
    CHECK(c.extension_kind == FileKind::audio);
  }
  SUBCASE("upper-case extensions") {
    check_kind(cls("PHOTO.PNG", "\x89PNG\r\n\x1a\n"s), FileKind::image, "image/png");
    CHECK(cls("NOTES.PNG", "text\n").extension_kind == FileKind::image);
    check_kind(cls("README.MD", "# Title\n"), FileKind::text, "text/markdown");
  }
}

TEST_CASE("classify: zero-byte files are decided by the extension") {
  check_kind(cls("empty.png", ""), FileKind::image, "image/png");
  check_kind(cls("empty.pdf", ""), FileKind::pdf, "application/pdf");
  check_kind(cls("empty.mp3", ""), FileKind::audio, "audio/mpeg");
  check_kind(cls("empty.ipynb", ""), FileKind::notebook, "application/x-ipynb+json");
  check_kind(cls("empty.json", ""), FileKind::text, "application/json");
  check_kind(cls("empty", ""), FileKind::text, "text/plain");
  CHECK(cls("empty", "").description == "empty");
}

TEST_CASE("classify: text") {
  SUBCASE("ASCII and UTF-8, mime by extension") {
    const auto ascii = cls("main.py", "print('hi')\n");
    check_kind(ascii, FileKind::text, "text/x-python");
    CHECK(ascii.description == "ASCII text");
    const auto utf8 = cls("notes", "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87\n");
    check_kind(utf8, FileKind::text, "text/plain");
    CHECK(utf8.description == "UTF-8 text");
    check_kind(cls("src/main.cpp", "int main() {}\n"), FileKind::text, "text/x-c++");
    check_kind(cls("Makefile", "all:\n\ttrue\n"), FileKind::text, "text/x-makefile");
    check_kind(cls(".bashrc", "export A=1\n"), FileKind::text, "text/plain");
  }
  SUBCASE("a character cut at the end of the sample") {
    const auto c = cls("notes", "caf\xC3\xA9 ok \xE4\xB8", 1000);
    check_kind(c, FileKind::text, "text/plain");
    CHECK(c.description == "UTF-8 text");
  }
  SUBCASE("byte-order marks") {
    CHECK(cls("a", "\xEF\xBB\xBFhi\n").description == "UTF-8 text, with byte-order mark");
    CHECK(cls("a", "\xFF\xFEh\0i\0\n\0"s).description == "UTF-16LE text, with byte-order mark");
    CHECK(cls("a", "\xFE\xFF\0h\0i\0\n"s).description == "UTF-16BE text, with byte-order mark");
    CHECK(cls("a", "\xFF\xFE\0\0h\0\0\0"s).description == "UTF-32LE text, with byte-order mark");
    check_kind(cls("a.csv", "\xFF\xFEh\0i\0\n\0"s), FileKind{"csv"}, "text/csv");  // text: its extension decides
  }
  SUBCASE("UTF-16 without a byte-order mark") {
    const auto c = cls("a.txt", "h\0e\0l\0l\0o\0 \0w\0o\0r\0l\0d\0\n\0"s);
    check_kind(c, FileKind::text, "text/plain");
    CHECK(c.description == "UTF-16LE text, without byte-order mark");
  }
  SUBCASE("legacy charsets: GBK and Latin-1") {
    std::string gbk;
    for (int i = 0; i < 20; ++i) gbk += "\xD6\xD0\xCE\xC4\xB2\xE2\xCA\xD4 hello \xC4\xE3\xBA\xC3\n";
    check_kind(cls("gbk.txt", gbk), FileKind::text, "text/plain");
    check_kind(cls("latin1", "caf\xe9 na\xefve r\xe9sum\xe9\n"), FileKind::text, "text/plain");
  }
  SUBCASE("libmagic's text mime when the extension says nothing") {
    const auto c = cls("install", "#!/bin/sh\necho caf\xe9\n");
    check_kind(c, FileKind::text, "text/x-shellscript");
    CHECK(c.description.find("shell script") != std::string::npos);
  }
}

// Images the signatures do not know but libmagic does go to the image reader, which asks libvips.
TEST_CASE("classify: libmagic's images are images") {
  const auto pgm = cls("scan.pgm", "P5\n4 3\n255\n" + std::string("\0\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b", 12));
  check_kind(pgm, FileKind::image, "image/x-portable-greymap");
  CHECK(pgm.description == "Netpbm image data, size = 4 x 3, rawbits, greymap");
  const auto exr = cls("hdr.exr", "\x76\x2f\x31\x01\x02\0\0\0channels\0chlist\0"s + std::string(64, '\0'));
  check_kind(exr, FileKind::image, "image/x-exr");
  const auto rad = cls("sky.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 2\n\x02\x02\0\x02\x80\x80\x80\x80"s +
                                      std::string(16, '\x01'));
  CHECK(rad.kind == FileKind::image);
  CHECK(rad.description.starts_with("Radiance HDR image data"));
}

TEST_CASE("classify: plain (ASCII) Netpbm is an image, other text starting with P is not") {
  check_kind(cls("a.pbm", "P1\n# a comment\n2 2\n0 1\n1 0\n"), FileKind::image, "image/x-portable-bitmap");
  check_kind(cls("a.pgm", "P2 2 1 255 0 128\n"), FileKind::image, "image/x-portable-greymap");
  check_kind(cls("a.ppm", "P3\n2 1\n255\n255 0 0 0 0 255\n"), FileKind::image, "image/x-portable-pixmap");
  CHECK(cls("notes.txt", "P3 is the third point.\n").kind == FileKind::text);
  CHECK(cls("notes.txt", "P2\n2 words\n").kind == FileKind::text);  // no maximum value
  CHECK(cls("notes.txt", "P1 1000000000 2\n").kind == FileKind::text);  // absurd size
}

TEST_CASE("classify: binary files name libmagic's type") {
  SUBCASE("ELF") {
    std::ifstream self("/proc/self/exe", std::ios::binary);
    std::string head(65536, '\0');
    self.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(self.gcount()));
    const auto c = cls("prog", head, 10'000'000);
    CHECK(c.kind == FileKind::binary);
    CHECK(c.mime.starts_with("application/x-"));  // x-pie-executable, x-executable, x-sharedlib
    CHECK(c.description.starts_with("ELF "));
  }
  SUBCASE("zip: an archive") {
    const std::string zip =
        "PK\x03\x04\x14\0\0\0\0\0\x76\x6a\x76\x5d\x86\xa6\x10\x36\x05\0\0\0\x05\0\0\0\x05\0\0\0"
        "a.txthelloPK\x01\x02\x14\x03\x14\0\0\0\0\0\x76\x6a\x76\x5d\x86\xa6\x10\x36\x05\0\0\0"
        "\x05\0\0\0\x05\0\0\0\0\0\0\0\0\0\0\0\x80\x01\0\0\0\0a.txtPK\x05\x06\0\0\0\0\x01\0\x01\0"
        "\x33\0\0\0\x28\0\0\0\0\0"s;
    const auto c = cls("a.zip", zip);
    CHECK(c.kind == FileKind{"archive"});
    CHECK(c.mime == "application/zip");
    CHECK(c.description.starts_with("Zip archive"));
  }
  SUBCASE("gzip: an archive (a compressed file is one member)") {
    const auto c = cls("a.gz", "\x1f\x8b\x08\0\0\0\0\0\x02\xff\x4b\x4c\x4a\x06\0\xc2\x41\x24\x35"
                               "\x03\0\0\0"s);
    CHECK(c.kind == FileKind{"archive"});
    CHECK(c.mime == "application/gzip");
    CHECK(c.description == "gzip-compressed data");
  }
  SUBCASE("NUL bytes") {
    const auto c = cls("zeros", std::string(4096, '\0'));
    CHECK(c.kind == FileKind::binary);
    CHECK(c.mime == "application/octet-stream");
    CHECK(c.description == "data");
  }
  SUBCASE("control bytes") {
    std::string controls;
    for (int i = 0; i < 100; ++i) controls += "\x01\x02\x03\x04";
    CHECK(cls("ctl", controls).kind == FileKind::binary);
  }
  SUBCASE("a binary with an image extension says what the name promised") {
    const auto c = cls("zeros.png", std::string(64, '\0'));
    CHECK(c.kind == FileKind::binary);
    CHECK(c.extension_kind == FileKind::image);
  }
}
