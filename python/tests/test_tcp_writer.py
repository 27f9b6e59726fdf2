"""The TCP writer's shape bookkeeping (no torch needed)."""

import unittest

from cudnn_mlir.frontend.tcp_writer import (TcpWriter, Value, float_literal,
                                            reassociation)


class ReassociationTest(unittest.TestCase):
    def test_merges(self):
        self.assertEqual(reassociation([2, 5, 32], [10, 32]), [[0, 1], [2]])
        self.assertEqual(reassociation([2, 8, 1, 1], [2, 8]), [[0], [1, 2, 3]])
        self.assertEqual(reassociation([1, 8, 1, 1], [8, 1, 1]),
                         [[0, 1], [2], [3]])
        self.assertEqual(reassociation([1, 1, 4], [1, 4]), [[0], [1, 2]])
        self.assertEqual(reassociation([1, 1], []), [])

    def test_not_a_merge(self):
        self.assertIsNone(reassociation([2, 3, 4], [3, 8]))
        self.assertIsNone(reassociation([6, 4], [4, 6]))
        self.assertIsNone(reassociation([2, 2], []))
        # A trailing 1 with no dimension left to take it: (3, 5) -> (15, 1)
        # is no collapse (it gave an empty group, which MLIR refuses).
        self.assertIsNone(reassociation([3, 5], [15, 1]))

    def test_reshape_adds_a_trailing_one(self):
        w = TcpWriter()
        x = Value("%arg0", (3, 5), "i64")
        y = w.reshape(x, (15, 1))
        self.assertEqual(y.shape, (15, 1))
        text = "\n".join(w.body())
        self.assertIn("tensor.collapse_shape %arg0 [[0, 1]]", text)
        self.assertIn("tensor.expand_shape", text)
        self.assertNotIn("[]", text)


class LiteralTest(unittest.TestCase):
    def test_decimal_has_a_point(self):
        self.assertEqual(float_literal(1e-05), "1.0e-05")
        self.assertEqual(float_literal(0.1), "0.1")
        self.assertEqual(float_literal(6), "6.0")
        self.assertEqual(float_literal(-2.5e20), "-2.5e+20")

    def test_non_finite_is_hex(self):
        self.assertEqual(float_literal(float("inf"), "f32"), "0x7F800000")
        self.assertEqual(float_literal(float("-inf"), "f64"),
                         "0xFFF0000000000000")
        # The pattern has the width of the constant's own type.
        self.assertEqual(float_literal(float("-inf"), "f16"), "0xFC00")
        self.assertEqual(float_literal(float("-inf"), "bf16"), "0xFF80")
        self.assertEqual(float_literal(float("nan"), "bf16"), "0x7FC0")

    def test_non_finite_splat_in_every_float_type(self):
        # A pad value or mask of -inf: the splat's literal must parse as
        # the tensor's element type (it was the f64 pattern for every type).
        for dtype, text in (("f16", "0xFC00"), ("bf16", "0xFF80"),
                            ("f32", "0xFF800000"),
                            ("f64", "0xFFF0000000000000")):
            w = TcpWriter()
            w.splat(float("-inf"), (2,), dtype)
            self.assertIn("dense<%s> : tensor<2x%s>" % (text, dtype),
                          "\n".join(w.body()))


class WriterTest(unittest.TestCase):
    def test_broadcast_adds_leading_dims_then_broadcasts(self):
        w = TcpWriter()
        y = w.broadcast_to(Value("%b", (16,), "f32"), (2, 5, 16))
        self.assertEqual(y.shape, (2, 5, 16))
        body = "\n".join(w.body())
        self.assertIn("tensor.expand_shape %b [[0, 1, 2]] output_shape "
                      "[1, 1, 16]", body)
        self.assertIn("tcp.broadcast %0, %c2, %c5 {axes = [0, 1]}", body)

    def test_reshape_that_is_no_merge_goes_through_1d(self):
        w = TcpWriter()
        y = w.reshape(Value("%x", (6, 4), "f16"), (4, 6))
        self.assertEqual(y.shape, (4, 6))
        body = "\n".join(w.body())
        self.assertIn("tensor.collapse_shape %x [[0, 1]]", body)
        self.assertIn("tensor.expand_shape %0 [[0, 1]] output_shape [4, 6]",
                      body)

    def test_shape_mismatch_is_an_error(self):
        w = TcpWriter()
        with self.assertRaisesRegex(ValueError, "cannot broadcast"):
            w.broadcast_to(Value("%x", (3,), "f32"), (2, 4))
        with self.assertRaisesRegex(ValueError, "expects operands of one "
                                    "type"):
            w.binary("tcp.add", Value("%a", (2,), "f32"),
                     Value("%b", (2,), "f16"))


if __name__ == "__main__":
    unittest.main()


class BoolTest(unittest.TestCase):
    def test_i1_literal_is_bit_packed_lowest_bit_first(self):
        # torch.bool's bytes (one per element): 10 elements, 2 bytes packed.
        w = TcpWriter()
        w.literal(bytes([1, 0, 1, 1, 0, 0, 0, 0, 0, 1]), (2, 5), "i1")
        # Bits 0, 2, 3 -> 0x0D; bit 9 -> 0x02.
        self.assertIn('dense<"0x0D02"> : tensor<2x5xi1>', w.body()[-1])

    def test_compare_of_integers_is_signed_and_of_bools_is_not(self):
        w = TcpWriter()
        a, b = Value("%a", (4,), "i64"), Value("%b", (4,), "i1")
        self.assertEqual(w.compare("lt", a, a).dtype, "i1")
        self.assertIn("in_int_signedness = #tcp<signedness Signed>",
                      w.body()[-1])
        w.compare("lt", b, b)
        self.assertNotIn("signedness", w.body()[-1])

    def test_select_needs_an_i1_condition_and_one_value_type(self):
        w = TcpWriter()
        c = Value("%c", (4,), "i1")
        x, y = Value("%x", (4,), "f32"), Value("%y", (4,), "f16")
        with self.assertRaises(ValueError):
            w.select(c, x, y)
        with self.assertRaises(ValueError):
            w.select(x, x, x)
        self.assertEqual(w.select(c, x, x).dtype, "f32")
