"""Sizes of sent images and formats of audio files, read from their headers (stdlib only)."""
import struct


def _jpeg_size(data):
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        # SOF0-15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5:i + 9])
            return width, height
        i += 2 + length
    return None


def image_size(data):
    """(mime, width, height) of a PNG, JPEG, GIF or WebP, or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "image/png", width, height
    if data.startswith(b"\xff\xd8"):
        size = _jpeg_size(data)
        return ("image/jpeg", *size) if size else None
    if data[:6] in (b"GIF87a", b"GIF89a"):
        width, height = struct.unpack("<HH", data[6:10])
        return "image/gif", width, height
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
            width, height = struct.unpack("<HH", data[26:30])
            return "image/webp", width & 0x3FFF, height & 0x3FFF
        if chunk == b"VP8L" and data[20] == 0x2F:
            bits = int.from_bytes(data[21:25], "little")
            return "image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        if chunk == b"VP8X":
            width = int.from_bytes(data[24:27], "little") + 1
            height = int.from_bytes(data[27:30], "little") + 1
            return "image/webp", width, height
    return None


# name -> the MIME types that rightly name it in an audio block
AUDIO_MIMES = {
    "WAV": {"audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave"},
    "OGG": {"audio/ogg", "audio/vorbis", "audio/opus"},
    "FLAC": {"audio/flac", "audio/x-flac"},
    "MP3": {"audio/mpeg", "audio/mp3"},
    "AIFF": {"audio/aiff", "audio/x-aiff"},
    "AU": {"audio/basic", "audio/au", "audio/x-au"},
    "VOC": {"audio/x-voc"},
    "8SVX": {"audio/x-8svx"},
}


def audio_format(head):
    """(name, MIME types) from the first bytes of an audio file, or None."""
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        name = "WAV"
    elif head[:4] == b"OggS":
        name = "OGG"
    elif head[:4] == b"fLaC":
        name = "FLAC"
    elif head[:3] == b"ID3" or (len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0):
        name = "MP3"
    elif head[:4] == b"FORM" and head[8:12] in (b"AIFF", b"AIFC"):
        name = "AIFF"
    elif head[:4] == b"FORM" and head[8:12] == b"8SVX":
        name = "8SVX"
    elif head[:4] == b".snd":
        name = "AU"
    elif head[:19] == b"Creative Voice File":
        name = "VOC"
    else:
        return None
    return name, AUDIO_MIMES[name]
