// Deeploy .npz archives: a ZIP of .npy members (networks/README.md §1.2). libzip does the
// container work: it takes sizes and offsets from the central directory (Deeploy's local
// headers carry ZIP64 extra fields and, in six members, 0xFFFFFFFF sizes), and handles both
// stored and deflated members. Members come back in archive order, since arrays are matched to
// graph tensors by position, never by name.
#include <algorithm>
#include <array>
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

}  // namespace

std::vector<GoldenArray> read_npz(const std::string& path) {
  golden_detail::require_file(path);   // uniform "cannot open" / "is a directory" errors
  int err = 0;
  std::unique_ptr<zip_t, ZipCloser> za(zip_open(path.c_str(), ZIP_RDONLY, &err));
  if (!za)
    throw GoldenError(fmt::format("{}: not a readable .npz (ZIP) archive: {}", path,
                                  zip_error_text(err)));
  const zip_int64_t count = zip_get_num_entries(za.get(), 0);
  std::vector<GoldenArray> arrays;
  for (zip_int64_t i = 0; i < count; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(za.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0)
      throw GoldenError(fmt::format("{}: member {}: {}", path, i, zip_strerror(za.get())));
    std::string member = (st.valid & ZIP_STAT_NAME) ? st.name : fmt::format("#{}", i);
    if (!member.empty() && member.back() == '/') continue;   // directory entry
    const std::string where = fmt::format("{}: member '{}'", path, member);
    if (!(st.valid & ZIP_STAT_SIZE)) throw GoldenError(where + ": size unknown");

    std::unique_ptr<zip_file_t, ZipFileCloser> f(zip_fopen_index(za.get(), static_cast<zip_uint64_t>(i), 0));
    if (!f) throw GoldenError(fmt::format("{}: {}", where, zip_strerror(za.get())));
    // The size comes from the archive and may lie: the member is read in chunks, never by
    // reserving the declared size up front (fuzz_npz: a stored member of 160 bytes declaring
    // 4 GiB made that allocation; one declaring 2^62 bytes threw std::bad_alloc).
    std::string bytes;
    std::array<char, 1 << 16> chunk;
    while (bytes.size() < st.size) {
      const zip_uint64_t want = std::min<zip_uint64_t>(chunk.size(), st.size - bytes.size());
      const zip_int64_t r = zip_fread(f.get(), chunk.data(), want);
      if (r < 0)
        throw GoldenError(fmt::format("{}: {}", where, zip_file_strerror(f.get())));
      if (r == 0) break;
      bytes.append(chunk.data(), static_cast<size_t>(r));
    }
    if (bytes.size() != st.size)
      throw GoldenError(fmt::format("{}: truncated ({} of {} bytes)", where, bytes.size(), st.size));

    GoldenArray a = parse_npy(bytes, where);
    if (member.size() > 4 && member.compare(member.size() - 4, 4, ".npy") == 0)
      member.resize(member.size() - 4);
    a.name = member;   // numpy's key: the member name without ".npy"
    arrays.push_back(std::move(a));
  }
  return arrays;
}

}  // namespace edgesim
