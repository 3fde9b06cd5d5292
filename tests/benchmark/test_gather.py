"""The gathered benchmarks page: every section says which device, sizes and commands made it."""

import json

from warpath.benchmark.gather import gather_page, main


def _write_suite(directory, name, *, devices=("cpu",), quick=False, gpu=None, kept=None,
                 partial=False):
    results = {"suite": name, "devices": list(devices), "quick": quick,
               "command": f"warpath bench {name} --latest",
               "environment": {"date": "2026-11-23T09:00:00+00:00",
                               "gpu": {"description": gpu} if gpu else {}},
               "experiments": [{"id": "a", "kept_from": kept}] if kept else [{"id": "a"}]}
    if partial:
        results["partial"] = True
    (directory / f"{name}.json").write_text(json.dumps(results), encoding="utf-8")
    (directory / f"{name}.md").write_text(
        f"# Benchmark: {name}\n\n## Experiment\n\n![a]({name}-a-speedup.png)\n", encoding="utf-8")


def test_the_table_tells_gpu_sections_from_cpu_quick_ones(tmp_path):
    _write_suite(tmp_path, "harish", devices=("cpu", "cuda"), gpu="NVIDIA H100 80GB HBM3",
                 kept={"command": "warpath bench harish --earlier", "date": "d"})
    _write_suite(tmp_path, "okuyama", quick=True)
    _write_suite(tmp_path, "hbf", devices=("cpu", "cuda"), gpu="NVIDIA H100 80GB HBM3",
                 partial=True)
    page = gather_page(tmp_path, ["hbf", "okuyama", "harish", "agarwal"])
    assert ("| harish | GPU and CPU | NVIDIA H100 80GB HBM3 | the papers' (see the graphs' "
            "notes) | 2026-11-23 | `warpath bench harish --earlier`; "
            "`warpath bench harish --latest` |") in page
    assert "| okuyama | CPU only | - | quick | 2026-11-23 | `warpath bench okuyama --latest` |" \
        in page
    assert "partial (stopped before the end)" in page
    assert "Not run yet: agarwal." in page
    # sections in the order asked, one heading level down, plot links from the page
    assert page.index("## Benchmark: hbf") < page.index("## Benchmark: okuyama") < \
        page.index("## Benchmark: harish")
    assert "### Experiment" in page
    assert "](benchmarks/harish-a-speedup.png)" in page


def test_notes_follow_the_table(tmp_path):
    _write_suite(tmp_path, "safari")
    (tmp_path / "NOTES.md").write_text("A note from us.\n", encoding="utf-8")
    page = gather_page(tmp_path, ["safari"])
    assert page.index("| safari |") < page.index("A note from us.") < \
        page.index("## Benchmark: safari")


def test_command_line_links_plots_relative_to_the_page(tmp_path):
    results = tmp_path / "docs" / "benchmarks"
    results.mkdir(parents=True)
    _write_suite(results, "agarwal")
    page = tmp_path / "docs" / "benchmarks.md"
    assert main(["--dir", str(results), "--output", str(page), "agarwal"]) == 0
    assert "](benchmarks/agarwal-a-speedup.png)" in page.read_text(encoding="utf-8")
