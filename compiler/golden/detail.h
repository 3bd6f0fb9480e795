// Internal helpers shared by the golden readers (not part of the public golden.h API): whole-file
// reads with GoldenError on failure, file-name helpers, and the golden-directory probes that
// load_inputs and check_expected use to recognise DORY, Deeploy and ONNX-test folders.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace edgesim::golden_detail {

// Throws GoldenError "<path>: cannot open ..." / "<path>: is a directory" / "<path>: is a FIFO
// (named pipe), not a regular file" (and other kinds) unless path is a readable regular file.
void require_file(const std::string& path);

// Reads the whole file; throws GoldenError as require_file does.
std::string read_file(const std::string& path);

// "dir/out_layer3.txt" -> "out_layer3.txt".
std::string file_name(const std::string& path);

// Lower-cased extension without the dot ("npz", "pb", "txt", "" if none).
std::string extension(const std::string& path);

// Files named <prefix><i><suffix> for i = 0, 1, 2, ... up to the first gap, e.g.
// input_0.pb, input_1.pb. Empty if <prefix>0<suffix> is absent.
std::vector<std::string> numbered_files(const std::filesystem::path& dir, const std::string& prefix,
                                        const std::string& suffix);

// An ONNX node-test folder: `dir` itself if it holds input_0.pb / output_0.pb, else
// dir/test_data_set_0 if that exists, else "".
std::string onnx_test_set(const std::filesystem::path& dir);

// Where the data of a .npy image starts: 0 while `head` is too short to tell (fewer bytes than
// the magic, version and header length). Throws GoldenError for a bad magic or version.
size_t npy_header_end(const std::string& head, const std::string& name);

// The header of a .npy image (`head` holds at least npy_header_end bytes): its size, and the
// shape, element count and data bytes it declares. Throws GoldenError for a bad header or a
// shape whose data would exceed `max_data` bytes ("is larger than <limit>").
struct NpyLayout {
  size_t header_bytes = 0;
  uint64_t data_bytes = 0;
  int64_t elements = 0;
  std::vector<int64_t> shape;
};
NpyLayout npy_layout(const std::string& head, const std::string& name, uint64_t max_data, const std::string& limit);

// Formats a golden or tensor value: integers without a fraction, floats with 9 digits.
std::string format_value(double v);

}  // namespace edgesim::golden_detail
