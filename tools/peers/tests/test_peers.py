"""Tests of the peer drivers: the shared protocol and case code always, each peer when installed.

    /usr/bin/python3 -m unittest discover -s tools/peers/tests

A test that needs NumPy, PyTorch or JAX skips, naming what is missing, when its interpreter lacks
it: the drivers are optional, so are their tests (tools/peers/README.md).
"""

from __future__ import annotations

import base64
import importlib.util
import io
import json
import os
import subprocess
import sys
import unittest
from pathlib import Path

PEERS = Path(__file__).resolve().parent.parent
ROOT = PEERS.parent.parent
sys.path.insert(0, str(PEERS))

FUNCSPEC = Path(os.environ.get("FUNCSPEC", str(ROOT / "build/tools/funcspec")))
HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
HAVE_TORCH = HAVE_NUMPY and importlib.util.find_spec("torch") is not None
JAX_PYTHON = os.environ.get("FUNCSPEC_JAX_PYTHON", str(PEERS / ".venv-jax/bin/python"))
TORCH = [sys.executable, str(PEERS / "torch_func.py")]  # the torch driver on this interpreter's PyTorch
JAX = [JAX_PYTHON, str(PEERS / "jax_driver.py")]


def case_doc(**fields):
    doc = {"format": "funcspec-case/1", "id": "TEST/x/y", "inputs": {}, "program": [], "outputs": ["y"]}
    doc.update(fields)
    return doc


def f64(*values):
    import numpy as np

    return {"dtype": "float64", "shape": [len(values)],
            "base64": base64.b64encode(np.array(values, "<f8").tobytes()).decode()}


@unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
class CaseTests(unittest.TestCase):
    def test_result_names_follow_the_case_format(self):
        from funcspec_peer.case import parse_case

        doc = case_doc(
            inputs={"x": f64(1, 2), "n": {"dtype": "int64", "shape": [], "data": 3}, "c": {"literal": 2.5}},
            program=[{"out": ["y"], "op": "mul", "args": ["x", "c"]}],
            transforms=[
                {"transform": "jvp", "tangents": {"x": f64(1, 0)}},
                {"transform": "jvp", "tangents": {"x": f64(0, 1)}},
            ],
        )
        self.assertEqual(parse_case(doc).result_names, ["y", "jvp(y)", "jvp(y)#2", "jvp(jvp(y))"])
        doc["transforms"] = [{"transform": "hessian", "argnums": ["x"]}]
        self.assertEqual(parse_case(doc).result_names, ["hess(y, x, x)"])
        doc["transforms"] = [{"transform": "vjp", "cotangents": {"y": f64(1, 1)}}]
        # Only floating tensor inputs get a cotangent; the int64 n and the literal c do not.
        self.assertEqual(parse_case(doc).result_names, ["y", "vjp(x)"])
        doc["outputs"] = ["y", "x"]
        doc["transforms"] = [{"transform": "grad_and_value", "argnums": -3, "has_aux": True}]
        self.assertEqual(parse_case(doc).result_names, ["grad(y, x)", "y", "x"])

    def test_format_1_1_fields(self):
        from funcspec_peer.case import parse_case

        doc = case_doc(
            format="funcspec-case/1.1",
            inputs={"buf": f64(1, 2, 3, 4),
                    "b": {"alias_of": "buf", "dtype": "float64", "shape": [2], "layout": {"strides": [2], "offset": 1}}},
            program=[{"out": ["y"], "op": "mul", "args": ["buf", "buf"], "stored_as": "kept"}],
            transforms=[{"transform": "vjp", "cotangents": {"y": f64(1, 1, 1, 1)}, "called_under": "no_grad",
                         "before_call": [{"out": ["w"], "op": "add_", "args": ["buf", "buf"]}]}],
            after={"program": [{"out": ["u"], "op": "add", "args": ["kept", "b"]}], "outputs": ["u"]},
        )
        case = parse_case(doc)
        # An alias reads its base's elements at offset + i * stride; after outputs follow the results.
        self.assertEqual(case.input("b").tensor.values.tolist(), [2.0, 4.0])
        self.assertEqual(case.input("b").alias_of, "buf")
        self.assertEqual(case.program[0].stored_as, "kept")
        self.assertEqual([s.op for s in case.transforms[0].get("before_call")], ["add_"])
        self.assertEqual(case.result_names, ["y", "vjp(buf)", "vjp(b)", "u"])
        doc["format"] = "funcspec-case/2"
        with self.assertRaises(ValueError):
            parse_case(doc)

    def test_functional_call_makes_the_state_one_argument(self):
        from funcspec_peer.case import dims_per_argument, parse_case
        from funcspec_peer.stack import flat, outermost_arguments

        doc = case_doc(
            inputs={"fc.weight": f64(1, 2), "x": f64(3, 4), "fc.bias": f64(0.5, 0.5)},
            program=[{"out": ["m"], "op": "mul", "args": ["x", "fc.weight"]},
                     {"out": ["a"], "op": "add", "args": ["m", "fc.bias"]},
                     {"out": ["y"], "op": "sum", "args": ["a"]}],
            transforms=[{"transform": "grad", "argnums": 0},
                        {"transform": "functional_call", "parameters": ["fc.weight"], "buffers": ["fc.bias"]}],
        )
        case = parse_case(doc)
        # argnums 0 is the whole state: one gradient per member, in the state's order.
        self.assertEqual(case.result_names, ["grad(y, fc.weight)", "grad(y, fc.bias)"])
        self.assertEqual([(a.name, a.members, a.state) for a in case.arguments],
                         [("state", ["fc.weight", "fc.bias"], True), ("x", ["x"], False)])
        self.assertEqual(outermost_arguments(case, lambda name: name.upper()),
                         [{"fc.weight": "FC.WEIGHT", "fc.bias": "FC.BIAS"}, "X"])
        # in_dims by name: a member alone (the others not mapped), or the whole state by its name.
        self.assertEqual(dims_per_argument({"fc.weight": 0, "x": None}, case.arguments),
                         ({"fc.weight": 0, "fc.bias": None}, None))
        self.assertEqual(dims_per_argument({"state": 1}, case.arguments), (1, None))
        self.assertEqual(dims_per_argument([0, None], case.arguments), (0, None))
        # JAX returns a dict with sorted keys; its leaves are named in the state's order.
        self.assertEqual(flat(({"fc.bias": 2, "fc.weight": 1},), ["fc.weight", "fc.bias"]), [1, 2])

    def test_layouts_place_values_as_the_case_format_says(self):
        from funcspec_peer.tensors import decode_tensor

        t = decode_tensor({"dtype": "float64", "shape": [3, 2], "data": [[1, 2], [3, 4], [5, 6]],
                           "layout": {"permute": [1, 0], "slice": {"start": [0, 1], "step": [2, 1]}}}, "x")
        buffer, strides, offset = t.strided_buffer()
        # slice(permute(buffer)): strides step[d] * contiguous_stride(buffer)[p[d]].
        self.assertEqual((strides, offset), ((2, 5), 5))
        import numpy as np

        view = np.lib.stride_tricks.as_strided(buffer[offset:], (3, 2), tuple(s * 8 for s in strides))
        self.assertEqual(view.tolist(), [[1, 2], [3, 4], [5, 6]])
        self.assertTrue(np.isnan(buffer[0]))  # a gap
        expanded = decode_tensor({"dtype": "int64", "shape": [2, 3], "data": [[1, 2, 3], [1, 2, 3]],
                                  "layout": {"strides": [0, 1], "offset": 2}}, "x")
        self.assertEqual(expanded.strided_buffer()[0].size, 5)

    def test_random_values_are_reported_only_for_generator_independent_clauses(self):
        from funcspec_peer.case import parse_case
        from funcspec_peer.randomness import stream_dependent_reason

        draw = [{"out": ["r"], "op": "rand", "attrs": {"size": [4]}}, {"out": ["y"], "op": "sin", "args": ["r"]}]
        self.assertIsNotNone(stream_dependent_reason(parse_case(case_doc(program=draw, clauses=["GEN-2.1"]))))
        self.assertIsNone(stream_dependent_reason(parse_case(case_doc(program=draw, clauses=["GEN-3.1"]))))
        # A draw that no output depends on, even through a view written in place, changes nothing.
        unrelated = [{"out": ["r"], "op": "rand", "attrs": {"size": [4]}},
                     {"out": ["y"], "op": "zeros", "attrs": {"size": [2]}}]
        self.assertIsNone(stream_dependent_reason(parse_case(case_doc(program=unrelated, clauses=["OPS-1.1"]))))
        aliased = [{"out": ["y"], "op": "zeros", "attrs": {"size": [2]}},
                   {"out": ["v"], "op": "select", "args": ["y"], "attrs": {"dim": 0, "index": 0}},
                   {"out": ["w"], "op": "uniform_", "args": ["v"]}]
        self.assertIsNotNone(stream_dependent_reason(parse_case(case_doc(program=aliased, clauses=["OPS-1.1"]))))


@unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
class ProtocolTests(unittest.TestCase):
    def serve(self, peer_class, requests):
        from funcspec_peer import wire

        read, write = os.pipe()
        saved = os.dup(1)
        try:
            os.dup2(write, 1)
            status = wire.serve(peer_class, io.StringIO("".join(json.dumps(r) + "\n" for r in requests)))
        finally:
            os.dup2(saved, 1)
            os.close(write)
            sys.stdout = sys.__stdout__
        with os.fdopen(read) as replies:
            return status, [json.loads(line) for line in replies]

    def test_hello_evaluate_bye(self):
        import numpy as np
        from funcspec_peer.wire import Output, Peer, SpecError

        class Doubling(Peer):
            name = "doubling"

            def capabilities(self):
                return {"ops": ["mul"], "transforms": [], "dtypes": ["float64"], "devices": ["cpu"]}

            def run(self, case):
                if case.id == "TEST/error":
                    raise SpecError("shape_mismatch", "no")
                if case.id == "TEST/unclassified":
                    raise RuntimeError("something PyTorch said")
                return [Output("float64", (2,), np.array([2.0, 4.0]))]

        evaluate = {"type": "evaluate", "case": case_doc(program=[{"out": ["y"], "op": "mul", "args": []}])}
        status, replies = self.serve(Doubling, [
            {"type": "hello", "protocols": ["funcspec-protocol/1"]},
            dict(evaluate, id=1),
            dict(evaluate, id=2, case=dict(evaluate["case"], id="TEST/error")),
            dict(evaluate, id=3, case=dict(evaluate["case"], id="TEST/unclassified")),
            {"type": "evaluate", "id": 4, "case": {"format": "funcspec-case/9"}},
            {"type": "bye"},
        ])
        self.assertEqual(status, 0)
        self.assertEqual(replies[0]["name"], "doubling")
        self.assertEqual(replies[1], {"type": "result", "id": 1, "outputs": {"y": {
            "dtype": "float64", "shape": [2], "base64": base64.b64encode(np.array([2.0, 4.0]).tobytes()).decode()}}})
        self.assertEqual((replies[2]["type"], replies[2]["kind"]), ("error", "shape_mismatch"))
        self.assertEqual(replies[3]["type"], "failed")
        self.assertIn("unclassified error: RuntimeError", replies[3]["reason"])
        self.assertNotIn("kind", replies[4])  # a rejection
        self.assertEqual(replies[4]["id"], 4)


class MatrixTests(unittest.TestCase):
    """run_peers.py's matrix from reports: statuses, clause verdicts and failures grouped by cause."""

    def test_failures_are_grouped_by_their_first_matching_cause(self):
        import run_peers

        def test(id_, status, reason="", clauses=("OPS-1.1",)):
            return {"id": id_, "clauses": list(clauses), "status": status, "reason": reason}

        report = {"run": {"backend": {"spec": "exec:peer", "name": "peer", "version": "1.0"}, "seed": 1,
                          "tier": "pr", "seconds": 2.5},
                  "tests": [test("OPS-VALUES/sin/a", "pass"),
                            test("OPS-VALUES/sin/b", "fail", "1 of 2 elements differ"),
                            test("OPS-VALUES/cos/a", "fail", "boom", ["OPS-1.2"]),
                            test("OPS-VALUES/tan/a", "unsupported", "no tan", ["OPS-1.3"])]}
        causes = [run_peers.Cause(id="sin", title="sin is off", verdict="difference", explanation="why",
                                  tests=["OPS-VALUES/sin/*"], reason="elements differ"),
                  run_peers.Cause(id="other", title="peer-only", verdict="difference", explanation="why",
                                  tests=["*"], peers=["another-peer"])]
        self.assertEqual(run_peers.clause_verdicts(report),
                         {"OPS-1.1": "violated", "OPS-1.2": "violated", "OPS-1.3": "unsupported"})
        text, unexplained = run_peers.render([("peer", report)], causes, "cmd")
        self.assertEqual(unexplained, 1)  # cos: the second cause is for another peer
        self.assertIn("#### sin is off — difference, 1 test", text)
        self.assertIn("`OPS-VALUES/cos/a`", text)


class TierMatrixTests(unittest.TestCase):
    """run_peers.py --tier: the matrix covers several tiers, each for every peer or some."""

    def test_tier_arguments_name_the_peers_each_tier_runs(self):
        import run_peers

        everyone = run_peers.TierRun.parse("pr")
        some = run_peers.TierRun.parse("nightly:torch-1.13,torch-2")
        self.assertTrue(everyone.includes("jax"))
        self.assertEqual(some.peers, ["torch-1.13", "torch-2"])
        self.assertFalse(some.includes("jax"))
        self.assertEqual(run_peers.report_key("jax", "pr", "pr"), "jax")
        self.assertEqual(run_peers.report_key("torch-2", "nightly", "pr"), "torch-2@nightly")
        with self.assertRaises(SystemExit):
            run_peers.TierRun.parse(":torch-2")

    def test_a_peer_at_a_second_tier_gets_its_own_row_and_section(self):
        import run_peers

        def report(tier, status):
            return {"run": {"backend": {"spec": "exec:x", "name": "functorch", "version": "PyTorch 1.13.0a0"},
                            "seed": 7, "tier": tier, "seconds": 1.0},
                    "tests": [{"id": "OPS-VALUES/sin/a", "clauses": ["OPS-1.1"], "status": status, "reason": "off"}]}

        text, unexplained = run_peers.render([("torch-1.13", report("pr", "pass")),
                                              ("torch-1.13@nightly", report("nightly", "fail"))], [], "cmd")
        self.assertEqual(unexplained, 1)  # the nightly failure is judged like any other
        self.assertIn("| functorch | PyTorch 1.13.0a0 | nightly | 1 |", text)
        self.assertIn("## functorch (PyTorch 1.13.0a0)\n", text)
        self.assertIn("## functorch (PyTorch 1.13.0a0), nightly tier\n", text)


class FixtureAgreementTests(unittest.TestCase):
    """run_peers.py --fixture-agreement: each peer's status on the test behind every golden fixture."""

    @staticmethod
    def report(name, version, statuses, seed=7, tier="pr"):
        return {"run": {"backend": {"spec": "exec:x", "name": name, "version": version}, "seed": seed, "tier": tier},
                "tests": [{"id": i, "clauses": [], "status": s, "reason": ""} for i, s in statuses.items()]}

    def test_statuses_per_fixture_with_each_peers_release(self):
        import run_peers

        index = {"format": "funcspec-fixtures/1", "seed": 7, "tier": "pr",
                 "fixtures": [{"id": "A/a"}, {"id": "B/b"}, {"id": "C/new"}]}
        reports = [("torch-1.13", self.report("functorch", "PyTorch 1.13.0a0",
                                              {"A/a": "pass", "B/b": "xfail", "Z/z": "fail"})),
                   ("jax", self.report("jax", "JAX 0.10.2 (jaxlib, CPU, x64)", {"A/a": "error", "B/b": "skip"}))]
        doc = run_peers.fixture_agreement(reports, index)
        self.assertEqual(doc["format"], "funcspec-peer-agreement/1")
        self.assertEqual([p["label"] for p in doc["peers"]], ["functorch 1.13", "jax 0.10.2"])
        self.assertEqual(doc["fixtures"], {
            "A/a": {"torch-1.13": "pass", "jax": "fail"},
            "B/b": {"torch-1.13": "fail", "jax": "unsupported"},
            "C/new": {"torch-1.13": "absent", "jax": "absent"},  # the peers' run predates it
        })
        self.assertEqual(run_peers.version_label(self.report("torch.func", "PyTorch 2.15.0+cu132", {})),
                         "torch.func 2.15")

    def test_reports_of_another_tier_are_refused(self):
        import run_peers

        index = {"format": "funcspec-fixtures/1", "seed": 7, "tier": "pr", "fixtures": []}
        with self.assertRaises(SystemExit) as raised:
            run_peers.fixture_agreement([("jax", self.report("jax", "1.0", {}, tier="smoke"))], index)
        self.assertIn("run the peers at that tier", str(raised.exception))


class FindingTests(unittest.TestCase):
    @unittest.skipUnless(FUNCSPEC.exists(), f"no funcspec command at {FUNCSPEC} (build tools/funcspec)")
    def test_every_finding_passes_on_the_reference(self):
        # A peer finding is a bug only while the spec's own engine gets the case right.
        findings = sorted((ROOT / "fixtures/peer-findings").glob("*.json"))
        self.assertTrue(findings)
        for case in findings:
            done = subprocess.run([str(FUNCSPEC), "replay", str(case), "--backend", "reference"], capture_output=True,
                                  text=True, cwd=ROOT)
            self.assertEqual(done.returncode, 0, f"{case.name}: {done.stdout[-800:]}{done.stderr[-400:]}")

    def test_every_bug_cause_names_an_existing_finding(self):
        import run_peers

        causes = run_peers.load_causes(PEERS / "explanations.json")  # validates finding paths and verdicts
        named = {c.finding for c in causes if c.finding}
        on_disk = {f"fixtures/peer-findings/{p.name}" for p in (ROOT / "fixtures/peer-findings").glob("*.json")}
        self.assertEqual(named, on_disk)


def run_driver(command, cases):
    """Replies of a driver process to hello, one evaluate per case, bye."""
    requests = [{"type": "hello", "protocols": ["funcspec-protocol/1"]}]
    requests += [{"type": "evaluate", "id": k, "case": c} for k, c in enumerate(cases)]
    requests.append({"type": "bye"})
    done = subprocess.run(command, input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def hand_cases(names=("broadcast/add--trailing-2x3-with-3.json", "errors/sum--dim_out_of_range-dim-2-of-rank-2.json",
                      "ad/grad/mul--argnums-list-gives-one-gradient-per-argument.json",
                      "vmap/nested/dot--pairwise-dots-are-a-matmul.json", "meta/matmul--infers-batched-shape.json")):
    """Some of the suite's hand-written cases, without their expectations (as the suite sends them)."""
    cases, expected = [], []
    for name in names:
        doc = json.loads((ROOT / "conformance/cases" / name).read_text())
        expected.append(doc.pop("expect"))
        cases.append(doc)
    return cases, expected


# The suite's module cases: functional_call under grad, vjp, jvp and vmap (a member mapped alone),
# with dotted names and a buffer written in place.
MODULE_CASES = ("modules/call/linear--dotted-names-are-submodule-state.json",
                "modules/vmap/linear-mse--per-sample-gradients.json",
                "modules/grad/linear--vjp-pulls-back-to-the-state-and-the-data.json",
                "modules/grad/linear--jvp-along-the-weight.json",
                "modules/ensemble/linear--one-state-member-mapped.json",
                "modules/batch-norm/running-stats--stacked-buffers-take-each-examples-update.json")

# Format 1.1 cases both drivers pass (docs/case-format.md, *Format 1.1*): an escaped value used
# after vmap, one that is an ordinary tensor, aliased arguments under grad, grad modes around calls.
FORMAT_1_1_CASES = ("vmap/escaped/sin--transform_escaped-out-of-place-use-after-vmap.json",
                    "vmap/escaped/sin--unbatched-intermediate-is-an-ordinary-tensor.json",
                    "ad/aliased/mul--grad-a-tensor-and-its-transpose-are-separate-arguments.json",
                    "ad/modes/sin--grad-called-under-no_grad.json",
                    "ad/modes/mul--inner-grad-called-under-no_grad-is-a-constant-for-the-outer-grad.json",
                    "ad/regions/mul--enable_grad-inside-no_grad-differentiates-again.json",
                    "ad/regions/mul--enable_grad-inside-an-inner-grad-called-under-no_grad-stays-constant.json")

# The global autograd API inside a transform (SPEC AD-5.6): PyTorch's own, so the torch driver only.
AUTOGRAD_API_CASES = ("ad/autograd_api/mul--autograd-grad-inside-vmap.json",
                      "ad/autograd_api/mul--backward-inside-grad.json")

# The suite's custom-function cases each rule of the catalogue is seen in: both modes, nesting,
# vmap, and forward mode meeting a function without a jvp rule.
CUSTOM_CASES = ("custom/reverse/custom.clip_gradient--vjp-clamps-the-cotangent.json",
                "custom/reverse/custom.straight_through_round--grad-is-one-where-round-has-zero.json",
                "custom/jvp/custom.log1pexp--linearize-evaluates-the-jvp-rule.json",
                "custom/nested/custom.log1pexp--hessian-is-the-diagonal-of-the-sigmoid-derivative.json",
                "custom/nested/custom.clip_gradient--vmap-of-vjp-clamps-each-example.json",
                "custom/vmap/custom.straight_through_round--vmap-of-grad-is-one-per-example.json",
                "custom/errors/custom.clip_gradient--custom_rule_missing-jvp.json",
                "custom/errors/custom.clip_gradient--invalid_argument-min-above-max.json")

# Where the spec transposes a jvp rule as JAX does, and torch.func raises (a deliberate difference).
TRANSPOSE_CASES = ("custom/transpose/custom.straight_through_sign--grad-transposes-the-jvp-rule.json",)


def state_cases():
    """functional_call cases with ops every peer has, the expectations computed here: grad of the
    whole state under vmap, named in the state's order (dotted buffer last, though JAX sorts it
    first), and one state member mapped alone."""
    import numpy as np

    def tensor(array):
        array = np.asarray(array, dtype="<f8")
        return {"dtype": "float64", "shape": list(array.shape), "base64": base64.b64encode(array.tobytes()).decode()}

    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    per_example_grads = case_doc(
        inputs={"x": tensor(x), "w": tensor([0.5, -1.0]), "s.b": tensor([2.0, 3.0])},
        program=[{"out": ["m"], "op": "mul", "args": ["x", "w"]}, {"out": ["a"], "op": "add", "args": ["m", "s.b"]},
                 {"out": ["y"], "op": "sum", "args": ["a"]}],
        transforms=[{"transform": "vmap", "in_dims": {"x": 0}}, {"transform": "grad", "argnums": 0},
                    {"transform": "functional_call", "parameters": ["w"], "buffers": ["s.b"]}])
    w = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
    one_member_mapped = case_doc(
        inputs={"x": tensor([1.0, 2.0, 3.0]), "w": tensor(w), "b": tensor([0.5, 0.5, 0.5])},
        program=[{"out": ["m"], "op": "mul", "args": ["x", "w"]}, {"out": ["y"], "op": "add", "args": ["m", "b"]}],
        transforms=[{"transform": "vmap", "in_dims": {"w": 0}},
                    {"transform": "functional_call", "parameters": ["w", "b"]}])
    expected = [
        {"values": {"grad(y, w)": {"dtype": "float64", "shape": [3, 2], "data": x.tolist()},
                    "grad(y, s.b)": {"dtype": "float64", "shape": [3, 2], "data": np.ones((3, 2)).tolist()}}},
        {"values": {"y": {"dtype": "float64", "shape": [2, 3], "data": (np.array([1.0, 2.0, 3.0]) * w + 0.5).tolist()}}},
    ]
    return [per_example_grads, one_member_mapped], expected


def catalogue():
    """The op names of `funcspec ops`, or None without a built funcspec."""
    if not FUNCSPEC.exists():
        return None
    listing = subprocess.run([str(FUNCSPEC), "ops", "--format", "markdown"], capture_output=True, text=True).stdout
    import re

    return set(re.findall(r"^\| `([^`]+)` \|", listing, re.M))


class DriverTests(unittest.TestCase):
    def check(self, replies, expected):
        import numpy as np

        self.assertEqual(replies[0]["type"], "hello")
        ops = catalogue()
        if ops is not None:
            # Capabilities name catalogue ops only (the suite would never ask for another name).
            self.assertLessEqual(set(replies[0]["capabilities"]["ops"]), ops)
        for reply, expect in zip(replies[1:], expected):
            if "error" in expect:
                self.assertEqual((reply["type"], reply.get("kind")), ("error", expect["error"]), reply)
                continue
            self.assertEqual(reply["type"], "result", reply)
            for name, value in expect["values"].items():
                got = reply["outputs"][name]
                self.assertEqual((got["dtype"], got["shape"]), (value["dtype"], value["shape"]))
                if "data" in value:
                    values = np.frombuffer(base64.b64decode(got["base64"]), dtype=value["dtype"])
                    np.testing.assert_allclose(values, np.array(value["data"], dtype=value["dtype"]).ravel())

    @unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed for this interpreter (apt-get install python3-torch)")
    def test_torch_driver_runs_hand_written_cases(self):
        cases, expected = hand_cases()
        self.check(run_driver(TORCH, cases), expected)

    @unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed for this interpreter (apt-get install python3-torch)")
    def test_torch_driver_calls_modules_with_the_given_state(self):
        cases, expected = hand_cases(MODULE_CASES)
        more_cases, more_expected = state_cases()
        self.check(run_driver(TORCH, cases + more_cases), expected + more_expected)

    @unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed for this interpreter (apt-get install python3-torch)")
    def test_torch_driver_runs_custom_functions_on_pytorch_2_only(self):
        import torch

        cases, expected = hand_cases(CUSTOM_CASES + TRANSPOSE_CASES)
        replies = run_driver(TORCH, cases)
        declared = {op for op in replies[0]["capabilities"]["ops"] if op.startswith("custom.")}
        if int(torch.__version__.split(".")[0]) < 2:
            # functorch 1.13 refuses every autograd.Function under its transforms: not declared.
            self.assertEqual(declared, set())
            self.assertEqual({r["type"] for r in replies[1:]}, {"unsupported"})
            return
        self.assertEqual(len(declared), 4)
        self.check(replies[:-1], expected[:-1])
        # No vjp rule: torch.func raises where the spec (and JAX) transpose the jvp rule.
        self.assertEqual((replies[-1]["type"], replies[-1].get("kind")), ("error", "custom_rule_missing"))

    @unittest.skipUnless(HAVE_TORCH, "PyTorch is not installed for this interpreter (apt-get install python3-torch)")
    def test_torch_driver_runs_format_1_1_cases(self):
        cases, expected = hand_cases(FORMAT_1_1_CASES + AUTOGRAD_API_CASES)
        replies = run_driver(TORCH, cases)
        self.assertEqual(set(replies[0]["capabilities"]["features"]),
                         {"aliased_inputs", "autograd_api", "before_call", "call_modes", "grad_mode_regions",
                          "stored_values"})
        self.check(replies, expected)

    @unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
    @unittest.skipUnless(Path(JAX_PYTHON).exists(), f"no JAX interpreter at {JAX_PYTHON} (tools/peers/README.md)")
    def test_jax_driver_runs_format_1_1_cases(self):
        cases, expected = hand_cases(FORMAT_1_1_CASES)
        self.check(run_driver(JAX, cases), expected)

    @unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
    @unittest.skipUnless(Path(JAX_PYTHON).exists(), f"no JAX interpreter at {JAX_PYTHON} (tools/peers/README.md)")
    def test_jax_driver_runs_hand_written_cases(self):
        cases, expected = hand_cases()
        self.check(run_driver(JAX, cases), expected)

    @unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
    @unittest.skipUnless(Path(JAX_PYTHON).exists(), f"no JAX interpreter at {JAX_PYTHON} (tools/peers/README.md)")
    def test_jax_driver_passes_the_state_as_a_dict(self):
        cases, expected = state_cases()
        self.check(run_driver(JAX, cases), expected)

    @unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
    @unittest.skipUnless(Path(JAX_PYTHON).exists(), f"no JAX interpreter at {JAX_PYTHON} (tools/peers/README.md)")
    def test_jax_driver_runs_custom_functions(self):
        cases, expected = hand_cases(CUSTOM_CASES + TRANSPOSE_CASES)
        self.check(run_driver(JAX, cases), expected)


if __name__ == "__main__":
    unittest.main()
