#!/usr/bin/env python3
"""Runs the conformance suite against every installed peer and writes docs/peers.md.

    python3 tools/peers/run_peers.py                  # every installed peer at pr, the PyTorch peers at nightly too
    python3 tools/peers/run_peers.py --tier pr --tier nightly:torch-1.13   # tiers, each for all or some peers
    python3 tools/peers/run_peers.py --peer torch-1.13 --tier smoke --no-doc
    python3 tools/peers/run_peers.py --report-only    # the matrix from the reports of an earlier run (out/<tier>)
    python3 tools/peers/run_peers.py --report-only --no-doc --fixture-agreement   # then `funcspec fixtures regen`

Each peer runs as `funcspec check --backend exec:... --json tools/peers/out/<tier>/<peer>.json`; the
matrix is computed from those JSON reports (docs/report-format.md) and from
tools/peers/explanations.json, which explains every failure by cause (a bug in the peer, with its
minimal case in fixtures/peer-findings/, or a deliberate difference from the spec). Explanations
are keyed by test-id glob (and optionally a reason pattern), so a regeneration keeps them; a
failure no explanation covers is listed as unexplained, and `--strict` makes that an error.

`--fixture-agreement` also writes fixtures/golden/peer-agreement.json: each peer's status on the test
behind every golden fixture (docs/fixtures.md), which `funcspec fixtures regen` notes in the fixtures.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FINDINGS = Path("fixtures/peer-findings")
FIXTURES = ROOT / "fixtures/golden"
FIXTURE_INDEX_FORMAT = "funcspec-fixtures/1"
AGREEMENT_FORMAT = "funcspec-peer-agreement/1"
STATUSES = ("pass", "fail", "xfail", "xpass", "unsupported", "skip", "error")
VERDICTS = ("satisfied", "partial", "violated", "unsupported")
UNEXPECTED = ("fail", "xpass", "error")


@dataclass
class PeerSpec:
    """One installable peer: the interpreter that has its library and the driver it runs."""

    key: str
    python: str
    driver: str
    probe: str  # Python statement that succeeds iff the library is installed for `python`

    def command(self) -> list[str]:
        # Paths relative to the repository root (where funcspec check runs), so reports name them portably.
        return [_relative(self.python), _relative(str(HERE / self.driver))]

    def available(self) -> Optional[str]:
        """None when usable, else why not."""
        if not Path(self.python).exists() and not _which(self.python):
            return f"{self.python} not found"
        probe = subprocess.run([self.python, "-c", self.probe], capture_output=True, text=True)
        if probe.returncode != 0:
            last = (probe.stderr.strip().splitlines() or ["?"])[-1]
            return f"{self.python} cannot import the library ({last})"
        return None


def _relative(path: str) -> str:
    try:
        # abspath, not resolve(): a virtual environment's python is a symlink to the system one.
        return str(Path(os.path.abspath(path)).relative_to(ROOT)) if os.sep in path else path
    except ValueError:
        return path


def _which(program: str) -> Optional[str]:
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(directory) / program
        if candidate.exists():
            return str(candidate)
    return None


def peer_specs() -> list[PeerSpec]:
    """The peers this repository knows how to run; interpreters may be overridden from the environment."""
    return [
        PeerSpec("torch-1.13", os.environ.get("FUNCSPEC_TORCH_PYTHON", "/usr/bin/python3"), "torch_func.py",
                 "import torch, functorch"),
        PeerSpec("torch-2", os.environ.get("FUNCSPEC_TORCH2_PYTHON", str(HERE / ".venv-torch2/bin/python")),
                 "torch_func.py", "import torch, torch.func; assert int(torch.__version__.split('.')[0]) >= 2"),
        PeerSpec("jax", os.environ.get("FUNCSPEC_JAX_PYTHON", str(HERE / ".venv-jax/bin/python")), "jax_driver.py",
                 "import jax, jaxlib"),
    ]


# What the matrix covers unless --tier says otherwise: every peer at pr, where CI gates, and the PyTorch
# peers at nightly as well (JAX is left at pr there: its driver runs the pr tier alone in about 17 minutes).
DEFAULT_TIERS = ("pr", "nightly:torch-1.13,torch-2")


@dataclass
class TierRun:
    """One tier of the matrix and the peers it runs (None: every peer)."""

    tier: str
    peers: Optional[list[str]] = None

    @staticmethod
    def parse(text: str) -> "TierRun":
        tier, _, peers = text.partition(":")
        if not tier:
            raise SystemExit(f"--tier {text!r}: expected TIER or TIER:PEER,PEER")
        return TierRun(tier, [p for p in peers.split(",") if p] or None)

    def includes(self, peer: str) -> bool:
        return self.peers is None or peer in self.peers


def report_key(peer: str, tier: str, first_tier: str) -> str:
    """The peer's key in the matrix: its own name at the first tier, `peer@tier` at the others."""
    return peer if tier == first_tier else f"{peer}@{tier}"


def run_peer(peer: PeerSpec, funcspec: Path, tier: str, out: Path, jobs: int, extra: list[str]) -> Path:
    report = out / f"{peer.key}.json"
    backend = "exec:" + " ".join(shlex.quote(part) for part in peer.command())
    command = [str(funcspec), "check", "--backend", backend, "--tier", tier, "--json", str(report), "--quiet",
               "--artifacts", str(out / f"{peer.key}-artifacts"), "--jobs", str(jobs), *extra]
    print(f"== {peer.key}: {' '.join(shlex.quote(c) for c in command)}", flush=True)
    # A non-zero exit status means failures, which is what the matrix is about; the failures as
    # funcspec prints them (with replay commands) go to out/<tier>/<peer>.log.
    with open(out / f"{peer.key}.log", "w") as log:
        subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    if not report.exists():
        raise SystemExit(f"{peer.key}: funcspec check wrote no report ({report})")
    replay_findings(peer, funcspec, backend, out)
    return report


def _workers_text(reports: list[tuple[str, dict[str, Any]]]) -> str:
    """How many workers the runs used (`--jobs` in their command lines; 1 when absent)."""
    jobs = set()
    for _, report in reports:
        found = re.search(r"(?:--jobs|-j)[ =](\d+)", report["run"].get("command_line", ""))
        jobs.add(int(found.group(1)) if found else 1)
    if len(jobs) == 1:
        n = jobs.pop()
        return "one worker" if n == 1 else f"{n} workers"
    return "the workers each run's command line names (" + ", ".join(str(j) for j in sorted(jobs)) + ")"


def replay_findings(peer: PeerSpec, funcspec: Path, backend: str, out: Path) -> None:
    """Replays every minimal case of fixtures/peer-findings/ on the peer: which bugs reproduce in it."""
    verdicts = {}
    for case in sorted((ROOT / FINDINGS).glob("*.json")):
        done = subprocess.run([str(funcspec), "replay", str(case.relative_to(ROOT)), "--backend", backend], cwd=ROOT,
                              capture_output=True, text=True)
        found = re.search(r"^verdict: (\w+)", done.stdout, re.M)
        verdicts[str(case.relative_to(ROOT))] = found.group(1) if found else "error"
    (out / f"{peer.key}.findings.json").write_text(json.dumps(verdicts, indent=2) + "\n")


# ---- explanations ----------------------------------------------------------------------------


@dataclass
class Cause:
    id: str
    title: str
    verdict: str  # "bug" (of the peer), "difference" (deliberate, peer vs spec), "limitation" (of the driver)
    explanation: str
    tests: list[str]
    peers: list[str] = field(default_factory=lambda: ["*"])
    reason: Optional[str] = None
    clauses: list[str] = field(default_factory=list)
    finding: Optional[str] = None
    upstream: list[str] = field(default_factory=list)

    def matches(self, peer_name: str, test: dict[str, Any]) -> bool:
        if not any(fnmatch.fnmatchcase(peer_name, p) for p in self.peers):
            return False
        if not any(fnmatch.fnmatchcase(test["id"], pattern) for pattern in self.tests):
            return False
        return self.reason is None or re.search(self.reason, test["reason"], re.S) is not None


def load_causes(path: Path) -> list[Cause]:
    doc = json.loads(path.read_text())
    causes = [Cause(**entry) for entry in doc["causes"]]
    ids = [c.id for c in causes]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise SystemExit(f"{path}: cause ids used twice: {sorted(duplicates)}")
    for c in causes:
        for name in ("tests", "peers", "clauses", "upstream"):
            value = getattr(c, name)
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise SystemExit(f"{path}: cause {c.id}: {name} must be a list of strings, not {value!r}")
        if c.verdict not in ("bug", "difference", "limitation"):
            raise SystemExit(f"{path}: cause {c.id}: unknown verdict {c.verdict!r}")
        if c.verdict == "bug" and not c.finding:
            raise SystemExit(f"{path}: cause {c.id}: a peer bug needs its minimal case (finding)")
        if c.finding and not (ROOT / c.finding).exists():
            raise SystemExit(f"{path}: cause {c.id}: {c.finding} does not exist")
    return causes


# ---- the matrix ------------------------------------------------------------------------------


def _peer_label(report: dict[str, Any]) -> str:
    backend = report["run"]["backend"]
    return f"{backend['name']} ({backend['version']})"


def _section_label(key: str, report: dict[str, Any]) -> str:
    """A peer's section title; a peer run at several tiers gets a section per tier."""
    return _peer_label(report) + (f", {report['run']['tier']} tier" if "@" in key else "")


def clause_verdicts(report: dict[str, Any]) -> dict[str, str]:
    """Clause -> verdict, recomputed from the tests as docs/report-format.md defines it."""
    counts: dict[str, dict[str, int]] = {}
    for test in report["tests"]:
        for clause in test["clauses"]:
            counts.setdefault(clause, {s: 0 for s in STATUSES})[test["status"]] += 1
    verdicts = {}
    for clause, c in counts.items():
        if c["fail"] or c["xfail"] or c["error"]:
            verdicts[clause] = "violated"
        elif c["pass"] + c["xpass"] == sum(c.values()):
            verdicts[clause] = "satisfied"
        elif c["pass"] + c["xpass"]:
            verdicts[clause] = "partial"
        else:
            verdicts[clause] = "unsupported"
    return verdicts


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _shorten(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _format_seconds(seconds: Any) -> str:
    seconds = float(seconds)
    return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"


def render_findings(reports: list[tuple[str, dict[str, Any]]], causes: list[Cause],
                    replays: dict[str, dict[str, str]]) -> list[str]:
    """The bugs found: each minimal case and, per peer, whether it still fails there."""
    bugs = [c for c in causes if c.verdict == "bug"]
    labels = []
    for key, report in reports:
        if "@" in key:
            continue  # the same peer at another tier: its replays are the same
        version = re.search(r"\d+\.\d+[\w.+]*", report["run"]["backend"]["version"])
        labels.append((key, report["run"]["backend"]["name"] + (" " + version.group(0) if version else "")))
    lines = ["| bug | minimal case | " + " | ".join(label for _, label in labels) + " | upstream |",
             "|---|---|" + "---|" * len(labels) + "---|"]
    shown = {"fail": "**reproduces**", "pass": "passes", "unsupported": "unsupported", "error": "error"}
    for cause in bugs:
        # A finding is about one library (its file name starts with it: torch--, torch-2--, jax--);
        # another library failing the same case fails for its own reasons, explained elsewhere.
        library = Path(cause.finding or "").name.split("-")[0]
        cells = [shown.get(replays.get(key, {}).get(cause.finding or "", ""), "not replayed")
                 if key.split("-")[0] == library else "n/a" for key, _ in labels]
        upstream = ", ".join(f"[{_link_label(u)}]({u})" for u in cause.upstream) or "none found"
        lines.append(f"| {_cell(cause.title)} | [`{Path(cause.finding).name}`](../{cause.finding}) | "
                     + " | ".join(cells) + f" | {upstream} |")
    return lines


def _link_label(url: str) -> str:
    parts = url.rstrip("/").split("/")
    return f"{parts[-4]}/{parts[-3]}#{parts[-1]}" if len(parts) >= 5 and "github.com" in url else url


def render(reports: list[tuple[str, dict[str, Any]]], causes: list[Cause], command: str,
           replays: Optional[dict[str, dict[str, str]]] = None) -> tuple[str, int]:
    """docs/peers.md, and the number of unexpected results no cause explains."""
    lines: list[str] = []
    add = lines.append
    add("# Peers: torch.func and JAX against the spec")
    add("")
    add("<!-- Generated by tools/peers/run_peers.py from the JSON reports of `funcspec check` and from")
    add("     tools/peers/explanations.json. Do not edit by hand: edit the explanations and regenerate. -->")
    add("")
    add("funcspec exists to validate third-party transform backends; this page is the conformance matrix of")
    add("the real ones. Each peer is an external backend over the protocol (docs/protocol.md), driven by the")
    add("scripts in `tools/peers/`, and judged by the same suite as the reference. Regenerate with")
    add("")
    add("```sh")
    add(command)
    add("```")
    add("")
    add("## Headline")
    add("")
    header = ["peer", "version", "tier", "tests"] + list(STATUSES[:2]) + ["error", "unsupported", "skip"] + \
        [f"clauses {v}" for v in VERDICTS] + ["run time"]
    add("| " + " | ".join(header) + " |")
    add("|" + "---|" * len(header))
    unexplained_total = 0
    for key, report in reports:
        by_status = {s: 0 for s in STATUSES}
        for test in report["tests"]:
            by_status[test["status"]] += 1
        verdicts = clause_verdicts(report)
        by_verdict = {v: sum(1 for x in verdicts.values() if x == v) for v in VERDICTS}
        backend = report["run"]["backend"]
        row = [backend["name"], backend["version"], report["run"]["tier"], str(len(report["tests"])),
               str(by_status["pass"]), str(by_status["fail"] + by_status["xfail"] + by_status["xpass"]),
               str(by_status["error"]), str(by_status["unsupported"]), str(by_status["skip"])] + \
              [str(by_verdict[v]) for v in VERDICTS] + [_format_seconds(report["run"]["seconds"])]
        add("| " + " | ".join(_cell(c) for c in row) + " |")
    add("")
    add("A clause is *satisfied* when every test naming it passed, *partial* when the others were")
    add("unsupported, *violated* when any failed (docs/report-format.md). Run times are wall time of")
    add(f"`funcspec check` with {_workers_text(reports)}, on the machine that generated this page, and include")
    add("starting the peer's Python process for each restart.")
    add("")
    add("## Peer bugs found")
    add("")
    add("Each bug's minimal case, replayed on every peer (`funcspec replay FILE --backend ...`): *reproduces*")
    add("when the peer still fails it there.")
    add("")
    lines.extend(render_findings(reports, causes, replays or {}))
    add("")
    add("How to read the failures below: each cause is a **bug** of the peer (its minimal case is in")
    add("`fixtures/peer-findings/`, replayable with `funcspec replay FILE --backend ...`), a deliberate")
    add("**difference** between the peer and the spec (the clause says which one the spec follows and why),")
    add("or a **limitation** of the driver (what the protocol or the peer's API cannot carry).")
    add("")
    for key, report in reports:
        name = report["run"]["backend"]["name"]
        add(f"## {_section_label(key, report)}")
        add("")
        spec = report["run"]["backend"]["spec"].replace(f"{ROOT}{os.sep}", "")
        add(f"Backend: {_code(spec)}; seed {report['run']['seed']}, "
            f"tier {report['run']['tier']}, {len(report['tests'])} tests in "
            f"{_format_seconds(report['run']['seconds'])}.")
        add("")
        verdicts = clause_verdicts(report)
        for verdict in VERDICTS:
            clauses = sorted(c for c, v in verdicts.items() if v == verdict)
            add(f"- **{verdict}** ({len(clauses)}): " + (", ".join(clauses) if clauses else "none"))
        add("")
        unsupported: dict[str, int] = {}
        for test in report["tests"]:
            if test["status"] == "unsupported":
                unsupported[_unsupported_kind(test["reason"])] = unsupported.get(_unsupported_kind(test["reason"]),
                                                                                 0) + 1
        if unsupported:
            add("Unsupported tests, by reason:")
            add("")
            add("| tests | reason |")
            add("|---|---|")
            for reason, count in sorted(unsupported.items(), key=lambda kv: (-kv[1], kv[0])):
                add(f"| {count} | {_cell(reason)} |")
            add("")
        groups: dict[str, list[dict[str, Any]]] = {}
        unexplained: list[dict[str, Any]] = []
        for test in report["tests"]:
            if test["status"] not in ("fail", "xfail", "xpass", "error"):
                continue
            cause = next((c for c in causes if c.matches(name, test)), None)
            if cause is None:
                unexplained.append(test)
            else:
                groups.setdefault(cause.id, []).append(test)
        failing = sum(len(v) for v in groups.values()) + len(unexplained)
        add(f"### Failures ({failing} tests, {len(groups)} causes)")
        add("")
        for cause in causes:
            tests = groups.get(cause.id)
            if not tests:
                continue
            clauses = sorted({c for t in tests for c in t["clauses"]})
            add(f"#### {cause.title} — {cause.verdict}, {len(tests)} test{'s' if len(tests) != 1 else ''}")
            add("")
            add(cause.explanation)
            add("")
            add(f"- clauses: {', '.join(cause.clauses or clauses)}")
            if cause.finding:
                add(f"- minimal case: [`{cause.finding}`](../{cause.finding})")
            for link in cause.upstream:
                add(f"- upstream: {link}")
            shown = tests[:4]
            add("- tests: " + ", ".join(_code(t["id"]) for t in shown) +
                (f" and {len(tests) - len(shown)} more" if len(tests) > len(shown) else ""))
            add(f"- e.g. {_code(shown[0]['id'])}: {_cell(_shorten(_essence(shown[0]['reason']), 240))}")
            add("")
        if unexplained:
            unexplained_total += len(unexplained)
            add(f"#### Not yet explained ({len(unexplained)} tests)")
            add("")
            add("| test | status | reason |")
            add("|---|---|---|")
            for test in unexplained[:60]:
                add(f"| {_code(test['id'])} | {test['status']} | {_cell(_shorten(test['reason'], 200))} |")
            if len(unexplained) > 60:
                add(f"| … | | {len(unexplained) - 60} more |")
            add("")
    add("## Notes on the drivers")
    add("")
    add(NOTES)
    return "\n".join(lines) + "\n", unexplained_total


def write_manifest(path: Path, report: dict[str, Any], causes: list[Cause]) -> None:
    """An --xfail manifest listing every failing test of `report` with the cause that explains it."""
    name = report["run"]["backend"]["name"]
    lines = [
        f"# Expected failures of {_peer_label(report)} at the {report['run']['tier']} tier, written by",
        "# tools/peers/run_peers.py --xfail-manifest from tools/peers/explanations.json: regenerate, do not edit.",
        "",
    ]
    missing = []
    for test in report["tests"]:
        if test["status"] not in ("fail", "xfail"):
            continue
        # The CI step (ci-smoke.sh) leaves the property laws out: their generated programs meet peer
        # bugs whose outcome varies from run to run (functionalize reading uninitialized memory), so
        # an expected failure there could pass by chance and turn CI red. The matrix runs them.
        if test["id"].startswith("PROP-"):
            continue
        cause = next((c for c in causes if c.matches(name, test)), None)
        if cause is None:
            missing.append(test["id"])
            continue
        reason = f"{cause.verdict}: {cause.title}".replace("#", "no.")
        lines.append(f"{test['id'].replace(' ', '?').replace('#', '?')}  # {reason}")
    if missing:
        raise SystemExit(f"no explanation for {len(missing)} failures, e.g. {missing[:5]}: explain them first")
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path} ({len(lines) - 3} expected failures)")


def _essence(reason: str) -> str:
    """A failure's reason without a property law's restatement of itself (what follows 'passing programs:')."""
    found = re.search(r"violated after \d+ passing programs: (.*)", reason, re.S)
    return found.group(1) if found else reason


def _unsupported_kind(reason: str) -> str:
    """Unsupported reasons grouped: in-place and out= variants together, other op names kept."""
    reason = reason.strip()
    variant = re.match(r"the case calls the op '[\w.]+?(_|\.out)', which (.*) does not implement$", reason)
    if variant:
        kind = "an in-place variant (op_)" if variant.group(1) == "_" else "an out= variant (op.out)"
        return f"the case calls {kind} that {variant.group(2)} does not implement"
    return _shorten(reason, 170)


# ---- the golden fixtures' agreement file ---------------------------------------------------------


def fixture_status(status: str) -> str:
    """A report's test status as the agreement file states it: did the peer agree with the reference?"""
    if status in ("pass", "xpass"):
        return "pass"
    if status in ("fail", "xfail", "error"):
        return "fail"
    return "unsupported"  # unsupported, skip: the peer did not judge it


def version_label(report: dict[str, Any]) -> str:
    """'functorch 1.13', 'torch.func 2.15', 'jax 0.10.2': the library and its release, without a '.0' patch."""
    backend = report["run"]["backend"]
    found = re.search(r"\d+\.\d+(?:\.\d+)?", backend["version"])
    if not found:
        return backend["name"]
    version = found.group(0)
    if version.count(".") == 2 and version.endswith(".0"):
        version = version[:-2]
    return f"{backend['name']} {version}"


def fixture_agreement(reports: list[tuple[str, dict[str, Any]]], index: dict[str, Any]) -> dict[str, Any]:
    """The agreement document: for every fixture of the index, each peer's status on the test of that id."""
    for key, report in reports:
        run = report["run"]
        if run["seed"] != index["seed"] or run["tier"] != index["tier"]:
            raise SystemExit(f"{key}: its report is of seed {run['seed']}, tier {run['tier']}, but the fixtures were "
                             f"selected at seed {index['seed']}, tier {index['tier']}: run the peers at that tier")
    statuses = {key: {t["id"]: fixture_status(t["status"]) for t in report["tests"]} for key, report in reports}
    fixtures = {}
    for fixture in index["fixtures"]:
        fixtures[fixture["id"]] = {key: statuses[key].get(fixture["id"], "absent") for key, _ in reports}
    return {
        "format": AGREEMENT_FORMAT,
        "seed": index["seed"],
        "tier": index["tier"],
        "peers": [{"key": key, "label": version_label(report), "version": report["run"]["backend"]["version"]}
                  for key, report in reports],
        "fixtures": fixtures,
    }


def write_fixture_agreement(reports: list[tuple[str, dict[str, Any]]], fixtures: Path) -> None:
    index_path = fixtures / "index.json"
    if not index_path.exists():
        raise SystemExit(f"{index_path} does not exist: run `funcspec fixtures regen` first")
    index = json.loads(index_path.read_text())
    if index.get("format") != FIXTURE_INDEX_FORMAT:
        raise SystemExit(f"{index_path} is not a {FIXTURE_INDEX_FORMAT} index")
    doc = fixture_agreement(reports, index)
    path = fixtures / "peer-agreement.json"
    # Keys sorted and no run times: the file changes only when a status does.
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    agreeing = sum(1 for by_peer in doc["fixtures"].values()
                   if by_peer and all(status == "pass" for status in by_peer.values()))
    print(f"wrote {path} ({len(doc['fixtures'])} fixtures, every peer agreeing on {agreeing}); "
          "now run `funcspec fixtures regen`")


NOTES = """\
- **Randomness.** The spec's generator is its own Philox stream (GEN-2.1); neither PyTorch's
  generator nor JAX's keys reproduce its bits, and the protocol has no capability to say so. Both
  drivers draw from their own generator seeded with the case's seed and answer *unsupported* when a
  returned value depends on a draw and the case names clauses that compare it with the reference's
  draws (`funcspec_peer/randomness.py`); cases checking a property every generator has (GEN-1.2,
  GEN-3.1, GEN-3.2), an error (VMAP-2.1), or generated by a property law (which compares a backend
  with its own unbatched draws, or with distribution bounds) are answered. So the suite's
  VMAP-RANDOM tests are unsupported on the peers, while PROP-RANDOM judges the same identities on
  the peers' own generators. JAX has no `randomness` flag: the driver maps 'same' to a closed-over
  key and 'different' to a key split per example and mapped, as JAX code does; 'error' cannot be
  expressed, so random ops under it draw as under 'same'.
- **Errors.** A peer's exception becomes a spec error kind only where its message makes the kind
  certain (`tools/peers/torch_errors.py`, `jax_errors.py`). Otherwise the driver answers `failed`
  with `unclassified error: <exception>`, which the suite judges as a failure: the protocol has no
  error without a kind (an error reply without `kind` is a rejection of the request).
- **What is unsupported by construction.** functorch (PyTorch 1.13) has no `chunk_size` and no
  `linearize`, and runs no `autograd.Function` under its transforms, so the spec's custom functions
  (`custom.*`) are declared on PyTorch 2 only; JAX arrays are immutable, so JAX has no in-place or
  out= ops, no views (cases about aliasing are unsupported there) and no `functionalize` (there is
  no mutation to remove), no `chunk_size`, no grad mode (a `no_grad` step becomes `stop_gradient`
  only where every derivative transform of the case is reverse-mode, and nothing where all are
  forward-mode, which is exactly AD-5.1), and no losses or layers in JAX itself (they live in Flax
  and Optax), which leaves most module cases (they call `linear`) unsupported there. Meta cases run
  on PyTorch's meta device and under `jax.eval_shape`.
- **Modules and custom rules.** `functional_call` runs through PyTorch's own `functional_call` on an
  `nn.Module` built around the program, and through a dict pytree argument in JAX (which has no
  modules); the custom functions through `torch.autograd.Function` and JAX's `custom_jvp` /
  `custom_vjp`, with exactly the rules the spec gives them (tools/peers/README.md).
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--funcspec", default=str(ROOT / "build/tools/funcspec"), help="the funcspec command")
    parser.add_argument("--tier", action="append", metavar="TIER[:PEER,...]",
                        help="a tier of the matrix, for every peer or the ones listed (repeatable; the first is the "
                        f"main tier; default: {' '.join(DEFAULT_TIERS)})")
    parser.add_argument("--peer", action="append", help="run only these peers (repeatable)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", help="where the JSON reports go (default tools/peers/out; each tier in <out>/<tier>)")
    parser.add_argument("--doc", default=str(ROOT / "docs/peers.md"))
    parser.add_argument("--explanations", default=str(HERE / "explanations.json"))
    parser.add_argument("--report-only", action="store_true", help="only regenerate the matrix from --out")
    parser.add_argument("--no-doc", action="store_true", help="run the peers but do not write the matrix")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a failure has no explanation")
    parser.add_argument("--xfail-manifest", help="write the expected-failure manifest of the (one) peer run, "
                        "each failing test with its cause, for CI runs of that peer (docs/report-format.md)")
    parser.add_argument("--fixture-agreement", action="store_true",
                        help="write fixtures/golden/peer-agreement.json from the reports (docs/fixtures.md)")
    parser.add_argument("--fixtures", default=str(FIXTURES), help="the golden fixture directory")
    parser.add_argument("check_args", nargs="*", help="extra arguments for funcspec check (after --)")
    args = parser.parse_args()

    tiers = [TierRun.parse(t) for t in (args.tier or DEFAULT_TIERS)]
    out_root = Path(args.out) if args.out else HERE / "out"
    specs = [p for p in peer_specs() if not args.peer or p.key in args.peer]
    reports: list[tuple[str, dict[str, Any]]] = []
    replays: dict[str, dict[str, str]] = {}
    for tier_run in tiers:
        out = out_root / tier_run.tier
        out.mkdir(parents=True, exist_ok=True)
        for peer in specs:
            if not tier_run.includes(peer.key):
                continue
            path = out / f"{peer.key}.json"
            if not args.report_only:
                missing = peer.available()
                if missing is not None:
                    print(f"== {peer.key}: skipped: {missing}")
                    continue
                run_peer(peer, Path(args.funcspec), tier_run.tier, out, args.jobs, args.check_args)
            key = report_key(peer.key, tier_run.tier, tiers[0].tier)
            if path.exists():
                reports.append((key, json.loads(path.read_text())))
                if (out / f"{peer.key}.findings.json").exists():
                    replays[key] = json.loads((out / f"{peer.key}.findings.json").read_text())
            elif args.report_only:
                print(f"== {peer.key}: no report at {path}")
    if args.xfail_manifest:
        if len(reports) != 1:
            raise SystemExit("--xfail-manifest needs exactly one peer (--peer)")
        write_manifest(Path(args.xfail_manifest), reports[0][1], load_causes(Path(args.explanations)))
    if args.fixture_agreement:
        if not reports:
            raise SystemExit("--fixture-agreement: no peer report to read")
        # The fixtures were selected at one tier: the agreement is read from the peers' runs at it.
        write_fixture_agreement([(k, r) for k, r in reports if "@" not in k], Path(args.fixtures))
    if args.no_doc:
        return 0
    if not reports:
        print("no peer report to build the matrix from", file=sys.stderr)
        return 1
    causes = load_causes(Path(args.explanations))
    command = "python3 tools/peers/run_peers.py " + " ".join(
        f"--tier {t.tier}" + (":" + ",".join(t.peers) if t.peers else "") for t in tiers)
    text, unexplained = render(reports, causes, command, replays)
    Path(args.doc).write_text(text)
    print(f"wrote {args.doc} ({len(reports)} peers, {unexplained} unexplained failures)")
    return 1 if args.strict and unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
