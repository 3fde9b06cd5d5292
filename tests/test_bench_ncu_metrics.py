"""bench/ncu_metrics.py and bench/profile_multi_source.py: the profile's tools (issue 13)."""

import types

import pytest
from bench_scripts import load_bench_script

metrics = load_bench_script("ncu_metrics")
profile = load_bench_script("profile_multi_source")

RAW = "\n".join([
    '"ID","Process ID","Kernel Name","dram__bytes_read.sum","gpu__time_duration.sum"',
    '"","","","byte","nsecond"',
    '"0","7","fills::kernel","0","2,016"',
    '"3","7","enactor::kernel","282,167,757,568","209,151,584"',
]) + "\n"


def test_each_launch_and_the_metrics_asked_for(tmp_path, capsys):
    path = tmp_path / "raw.csv"
    path.write_text(RAW)
    assert [(i, k) for i, k, _ in metrics.launches(RAW)] == [("0", "fills::kernel"),
                                                            ("3", "enactor::kernel")]
    assert metrics.main([str(path), "gpu__time_duration.sum"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["launch 0 fills::kernel", "   gpu__time_duration.sum: 2,016",
                   "launch 3 enactor::kernel", "   gpu__time_duration.sum: 209,151,584"]


def test_without_a_file_the_usage_is_printed(capsys):
    assert metrics.main([]) == 2
    assert "--page raw" in capsys.readouterr().out


def test_help_prints_the_usage_and_opens_no_file(capsys):
    assert metrics.main(["--help"]) == 0
    assert "--page raw" in capsys.readouterr().out


def test_switches_are_set_by_name_and_an_unknown_one_is_refused():
    module = types.SimpleNamespace(__name__="m", WHOLE_ITEM_CLAIMS=True)
    assert profile.set_switches(module, ["WHOLE_ITEM_CLAIMS=0"]) == {"WHOLE_ITEM_CLAIMS": False}
    with pytest.raises(SystemExit, match="no switch 'CLAIMS'"):
        profile.set_switches(module, ["CLAIMS=1"])
