//! A C interface to encoding_rs's decoders, which decode as the WHATWG Encoding Standard says
//! (readers/src/charset/whatwg_decoder.hpp declares these functions for C++).
//!
//! encoding_rs 0.8.31 predates the standard's 2024 update of index-gb18030 (GB18030-2022): the
//! two-byte sequences whose code points moved from the Private Use Area to the characters
//! themselves are remapped here, after decoding.

use encoding_rs::{CoderResult, Decoder, Encoding, GB18030, GBK};

pub struct WhatwgDecoder {
    decoder: Decoder,
    gb18030: bool,
}

/// A decoder for the encoding the label names (its canonical name is one of its labels), with no
/// byte-order-mark handling; null for a label the standard does not know or maps to its
/// "replacement" decoder.
///
/// # Safety
/// `label` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn mcpread_whatwg_decoder_new(label: *const u8, len: usize) -> *mut WhatwgDecoder {
    if label.is_null() {
        return std::ptr::null_mut();
    }
    let label = std::slice::from_raw_parts(label, len);
    match Encoding::for_label_no_replacement(label) {
        Some(encoding) => Box::into_raw(Box::new(WhatwgDecoder {
            decoder: encoding.new_decoder_without_bom_handling(),
            gb18030: encoding == GB18030 || encoding == GBK, // one decoder, one index
        })),
        None => std::ptr::null_mut(),
    }
}

/// # Safety
/// `decoder` is null or came from `mcpread_whatwg_decoder_new` and is not used afterwards.
#[no_mangle]
pub unsafe extern "C" fn mcpread_whatwg_decoder_free(decoder: *mut WhatwgDecoder) {
    if !decoder.is_null() {
        drop(Box::from_raw(decoder));
    }
}

/// Decodes `src` to UTF-8 into `dst`, errors as U+FFFD; an incomplete sequence at the end of
/// `src` is kept for the next call unless `last`. Sets `*read` and `*written`; returns 0 when all
/// of `src` was consumed (after `last`, the decoder starts a new stream), 1 when `dst` filled up
/// first (call again with the rest). `dst` needs room for at least 16 bytes for progress.
///
/// # Safety
/// `decoder` is live; `src` has `src_len` readable and `dst` `dst_len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn mcpread_whatwg_decoder_decode(
    decoder: *mut WhatwgDecoder,
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
    last: bool,
    read: *mut usize,
    written: *mut usize,
) -> u32 {
    let d = &mut *decoder;
    if src_len == 0 && !last {
        // Nothing to do; and encoding_rs 0.8.31's Big5, EUC-KR and Shift_JIS decoders, given an
        // empty input while a lead byte waits, forget the lead byte (the two-byte decoder macro
        // clears it before finding there is no trail byte), so they are not called at all.
        *read = 0;
        *written = 0;
        return 0;
    }
    let src: &[u8] = if src_len == 0 { &[] } else { std::slice::from_raw_parts(src, src_len) };
    let dst: &mut [u8] = if dst_len == 0 { &mut [] } else { std::slice::from_raw_parts_mut(dst, dst_len) };
    let (result, r, w, _) = d.decoder.decode_to_utf8(src, dst, last);
    if d.gb18030 {
        remap_gb18030_2022(&mut dst[..w]);
    }
    *read = r;
    *written = w;
    if last && result == CoderResult::InputEmpty {
        // A decoder that has seen its end is not fed again: the next call starts a new stream.
        d.decoder = d.decoder.encoding().new_decoder_without_bom_handling();
    }
    match result {
        CoderResult::InputEmpty => 0,
        CoderResult::OutputFull => 1,
    }
}

/// The index-gb18030 pointers whose code points the 2024 revision of the standard changed, as
/// (code point encoding_rs 0.8.31 gives, code point the standard gives now). Each old one is a
/// Private Use code point that no other gb18030 sequence decodes to, so replacing it in the
/// output is the same as decoding with the new index. Every replacement has the same UTF-8
/// length (three bytes) as what it replaces.
const GB18030_2022: [(u32, u32); 18] = [
    (0xE78D, 0xFE10), (0xE78E, 0xFE12), (0xE78F, 0xFE11), (0xE790, 0xFE13),
    (0xE791, 0xFE14), (0xE792, 0xFE15), (0xE793, 0xFE16), (0xE794, 0xFE17),
    (0xE795, 0xFE18), (0xE796, 0xFE19), (0xE81E, 0x9FB4), (0xE826, 0x9FB5),
    (0xE82B, 0x9FB6), (0xE82C, 0x9FB7), (0xE832, 0x9FB8), (0xE843, 0x9FB9),
    (0xE854, 0x9FBA), (0xE864, 0x9FBB),
];

fn remap_gb18030_2022(utf8: &mut [u8]) {
    let mut i = 0;
    while i + 3 <= utf8.len() {
        // U+E78D..U+E864 are EE 9E 8D .. EE A1 A4 in UTF-8.
        if utf8[i] == 0xEE {
            let c = ((utf8[i] as u32 & 0x0F) << 12) | ((utf8[i + 1] as u32 & 0x3F) << 6) | (utf8[i + 2] as u32 & 0x3F);
            if let Some(&(_, to)) = GB18030_2022.iter().find(|&&(from, _)| from == c) {
                utf8[i] = (0xE0 | (to >> 12)) as u8;
                utf8[i + 1] = (0x80 | ((to >> 6) & 0x3F)) as u8;
                utf8[i + 2] = (0x80 | (to & 0x3F)) as u8;
            }
        }
        i += 1;
    }
}
