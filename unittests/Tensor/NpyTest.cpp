//===- NpyTest.cpp - numpy's .npy format ----------------------------------===//
//
// The headers and data bytes below are numpy 2.4's numpy.save output for the
// arrays named (header dicts as it writes them; its padding is spaces).
//
//===----------------------------------------------------------------------===//
#include "frost/Tensor/Npy.h"

#include "gtest/gtest.h"

#include <string>

using namespace frost;

namespace {

/// A version 1.0 file: magic, version, the header's length, the header (a
/// dict, padded, ending in a newline), the data.
std::string npy(const std::string &Dict, const std::string &Data) {
  std::string Header = Dict + std::string(20, ' ') + "\n";
  std::string Bytes = "\x93NUMPY\x01";
  Bytes += '\0';
  Bytes += static_cast<char>(Header.size() & 0xff);
  Bytes += static_cast<char>(Header.size() >> 8);
  return Bytes + Header + Data;
}

TEST(NpyTest, UnicodeAndByteStrings) {
  // numpy.array(['h\u00e9llo', 'a']): '<U5', UCS-4 code points, NUL padded.
  std::string U("\x68\0\0\0\xe9\0\0\0\x6c\0\0\0\x6c\0\0\0\x6f\0\0\0"
                "\x61\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0",
                40);
  auto T = decodeNpy(npy("{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }", U), "u");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->dtype(), tensorflow::DT_STRING);
  ASSERT_EQ(T->elements().size(), 2u);
  EXPECT_EQ(T->elements()[0], "h\xc3\xa9llo");
  EXPECT_EQ(T->elements()[1], "a");
  // numpy.array([b'ab', b'c\x00d']): '|S3'; trailing NULs are padding, an
  // inner one is data.
  T = decodeNpy(npy("{'descr': '|S3', 'fortran_order': False, 'shape': (2,), }",
                    std::string("ab\0c\0d", 6)),
                "s");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->elements()[0], "ab");
  EXPECT_EQ(T->elements()[1], std::string("c\0d", 3));
}

TEST(NpyTest, ByteOrdersAndDtypes) {
  // numpy.array([1, -2], '>i2').
  auto T = decodeNpy(npy("{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }",
                         std::string("\x00\x01\xff\xfe", 4)),
                     "be");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->dtype(), tensorflow::DT_INT16);
  EXPECT_EQ(T->values<int16_t>(), (std::vector<int16_t>{1, -2}));
  // numpy.array([1+2j], numpy.complex64).
  T = decodeNpy(npy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                    std::string("\x00\x00\x80\x3f\x00\x00\x00\x40", 8)),
                "c");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->dtype(), tensorflow::DT_COMPLEX64);
  EXPECT_EQ(T->bytes(), llvm::StringRef("\x00\x00\x80\x3f\x00\x00\x00\x40", 8)); // 1, 2
  // numpy.array(True): a scalar, shape ().
  T = decodeNpy(npy("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", "\x01"), "b");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->dtype(), tensorflow::DT_BOOL);
  EXPECT_TRUE(T->shape().empty());
  // numpy.zeros((2, 0), numpy.int64): no data.
  T = decodeNpy(npy("{'descr': '<i8', 'fortran_order': False, 'shape': (2, 0), }", ""), "z");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->shape().vec(), (std::vector<int64_t>{2, 0}));
}

TEST(NpyTest, RoundTripsThroughTheWriter) {
  std::string Floats("\x00\x00\xc0\x3f\x00\x00\x00\xc0", 8); // 1.5, -2
  TensorData F = TensorData::owned(tensorflow::DT_FLOAT, {2, 1}, Floats);
  auto Bytes = encodeNpy(F, "f");
  ASSERT_TRUE(Bytes.ok()) << Bytes.status();
  // Data aligned to 64 bytes, as numpy writes it.
  EXPECT_EQ((Bytes->size() - 8) % 64, 0u);
  EXPECT_NE(Bytes->find("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }"),
            std::string::npos);
  auto Back = decodeNpy(*Bytes, "f");
  ASSERT_TRUE(Back.ok()) << Back.status();
  EXPECT_EQ(Back->shape().vec(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(Back->bytes(), Floats);
  TensorData S = TensorData::strings(tensorflow::DT_STRING, {2}, {"a", "bcd"});
  Bytes = encodeNpy(S, "s");
  ASSERT_TRUE(Bytes.ok()) << Bytes.status();
  EXPECT_NE(Bytes->find("'descr': '|S3'"), std::string::npos);
  Back = decodeNpy(*Bytes, "s");
  ASSERT_TRUE(Back.ok()) << Back.status();
  EXPECT_EQ(Back->elements().vec(), (std::vector<std::string>{"a", "bcd"}));
  auto Refused = encodeNpy(TensorData::owned(tensorflow::DT_BFLOAT16, {1}, "ab"), "output 'y'");
  ASSERT_FALSE(Refused.ok());
  EXPECT_EQ(Refused.status().message(),
            "output 'y' is bfloat16, which numpy has no dtype for: cast it in the graph");
}

TEST(NpyTest, RefusalsNameTheFile) {
  auto message = [](const std::string &Dict, const std::string &Data) {
    auto T = decodeNpy(npy(Dict, Data), "in.npy");
    return T.ok() ? std::string("ok") : std::string(T.status().message());
  };
  EXPECT_EQ(message("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "abcd"),
            "in.npy: a structured array (a list as its dtype) cannot be a tensor");
  EXPECT_EQ(message("{'descr': '<M8[s]', 'fortran_order': False, 'shape': (1,), }", "abcdefgh"),
            "in.npy: unsupported dtype '<M8[s]'");
  EXPECT_EQ(message("{'descr': '<f4', 'fortran_order': False}", ""),
            "in.npy: not a .npy file: its header lacks 'descr', 'fortran_order' or 'shape'");
  EXPECT_EQ(message("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", ""),
            "in.npy: not a .npy file: its header has a 'shape' that is not a tuple of sizes");
  EXPECT_EQ(message("{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 8), }", ""),
            "in.npy: shape [4611686018427387904,8] has more than 2^63 elements");
  EXPECT_EQ(message("{'descr': '<U4611686018427387904', 'fortran_order': False, 'shape': (8,), }", ""),
            "in.npy: unsupported dtype '<U4611686018427387904'");
}

} // namespace
