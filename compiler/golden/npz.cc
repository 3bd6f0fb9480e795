// Deeploy .npz archives: a ZIP of .npy members (docs/verify.md "Golden file formats"). libzip does
// the container work: it takes sizes and offsets from the central directory (Deeploy's local
// headers carry ZIP64 extra fields and, in six members, 0xFFFFFFFF sizes), and handles both stored
// and deflated members. Members come back in archive order, since arrays are matched to graph
// tensors by position, never by name. Each member is streamed, bounded by its .npy header (and what
// the caller expects of it), and read to its end so that libzip checks its CRC-32 (golden.h,
// NpzArchive).
#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <zip.h>

#include "compiler/golden/detail.h"
#include "compiler/golden/golden.h"

namespace edgesim {
namespace {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }   // read-only: nothing to write back
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};

std::string zip_error_text(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string s = zip_error_strerror(&e);
  zip_error_fini(&e);
  return s;
}

// Reads member `index` of `za` to its end: the .npy header first (checked against `expect`),
// then exactly the data it declares, then one more read that must find the end of the member,
// which is where libzip compares the CRC-32 and the size with the directory's.
std::string read_member(zip_t* za, zip_uint64_t index, const zip_stat_t& st, const std::string& where,
                        const NpzExpect* expect) {
  std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen_index(za, index, 0));
  if (!f) throw GoldenError(fmt::format("{}: {}", where, zip_strerror(za)));
  std::array<char, 1 << 16> chunk;
  std::string bytes;
  // Appends up to `want` more bytes; false at the end of the member. A read error (a CRC or
  // size mismatch, a broken deflate stream) is a corrupt archive.
  auto more = [&](uint64_t want) {
    const zip_int64_t r = zip_fread(f.get(), chunk.data(), std::min<uint64_t>(chunk.size(), want));
    if (r < 0) throw GoldenError(fmt::format("{}: corrupt archive: {}", where, zip_file_strerror(f.get())));
    bytes.append(chunk.data(), static_cast<size_t>(r));
    return r > 0;
  };
  // The header: at most 1 MiB (numpy writes a few hundred bytes), read in small steps so that
  // no data beyond it is inflated before it is checked.
  constexpr size_t kMaxHeader = size_t{1} << 20;
  size_t end = 0;
  while ((end = golden_detail::npy_header_end(bytes, where)) == 0 || bytes.size() < end) {
    if (end > kMaxHeader) throw GoldenError(fmt::format("{}: a .npy header of {} bytes (at most {})", where, end, kMaxHeader));
    const uint64_t want = end == 0 ? 12 : end - bytes.size();
    if (!more(want)) throw GoldenError(fmt::format("{}: truncated ({} of {} bytes)", where, bytes.size(), st.size));
  }
  const uint64_t declared = st.size;
  const uint64_t max_data = expect ? static_cast<uint64_t>(std::max<int64_t>(expect->elements, 0)) * 8
                                   : (declared > end ? declared - end : 0);
  const golden_detail::NpyLayout l =
      golden_detail::npy_layout(bytes, where, max_data, expect ? "the " + expect->what : "the member");
  if (expect && l.elements != expect->elements)
    throw GoldenError(fmt::format("{}: .npy shape {} ({} elements), but it is for {} ({} elements)", where,
                                  shape_str(l.shape), l.elements, expect->what, expect->elements));
  const uint64_t total = end + l.data_bytes;
  while (bytes.size() < total)
    if (!more(total - bytes.size()))
      throw GoldenError(fmt::format("{}: truncated ({} of {} bytes)", where, bytes.size(), total));
  if (more(1))
    throw GoldenError(fmt::format("{}: holds more than the {} bytes its .npy header declares", where, total));
  return bytes;
}

}  // namespace

struct NpzArchive::Zip {
  std::unique_ptr<zip_t, ZipCloser> za;
};

NpzArchive::NpzArchive(const std::string& path) : path_(path), zip_(std::make_unique<Zip>()) {
  golden_detail::require_file(path);   // uniform "cannot open" / "is a directory" errors
  int err = 0;
  zip_->za.reset(zip_open(path.c_str(), ZIP_RDONLY, &err));
  if (!zip_->za)
    throw GoldenError(fmt::format("{}: not a readable .npz (ZIP) archive: {}", path, zip_error_text(err)));
  const zip_int64_t count = zip_get_num_entries(zip_->za.get(), 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* name = zip_get_name(zip_->za.get(), static_cast<zip_uint64_t>(i), 0);
    if (name && *name && name[std::strlen(name) - 1] == '/') continue;   // directory entry
    members_.push_back(static_cast<uint64_t>(i));
  }
}

NpzArchive::~NpzArchive() = default;

GoldenArray NpzArchive::read(size_t k, const NpzExpect* expect) const {
  const zip_uint64_t i = members_.at(k);
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip_->za.get(), i, 0, &st) != 0)
    throw GoldenError(fmt::format("{}: member {}: {}", path_, i, zip_strerror(zip_->za.get())));
  std::string member = (st.valid & ZIP_STAT_NAME) ? st.name : fmt::format("#{}", i);
  const std::string where = fmt::format("{}: member '{}'", path_, member);
  if (!(st.valid & ZIP_STAT_SIZE)) throw GoldenError(where + ": size unknown");
  GoldenArray a = parse_npy(read_member(zip_->za.get(), i, st, where, expect), where);
  if (member.size() > 4 && member.compare(member.size() - 4, 4, ".npy") == 0) member.resize(member.size() - 4);
  a.name = member;   // numpy's key: the member name without ".npy"
  return a;
}

std::vector<GoldenArray> read_npz(const std::string& path) {
  const NpzArchive npz(path);
  std::vector<GoldenArray> arrays;
  for (size_t k = 0; k < npz.size(); ++k) arrays.push_back(npz.read(k));
  return arrays;
}

}  // namespace edgesim
