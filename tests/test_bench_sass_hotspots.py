"""bench/sass_hotspots.py: ncu's source page read back into opcode shares and hot runs."""

from bench_scripts import load_bench_script

hotspots = load_bench_script("sass_hotspots")

HEADER = '"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed"'
CSV = "\n".join([
    '"Kernel Name","cudaCGSynchronize",',
    HEADER,
    '"0x10","LDG.E R1, desc[UR4][R2.64]","5","7"',
    '"Kernel Name","kernel",',
    HEADER,
    '"0x20","S2R R0, SR_TID.X","0","1"',
    '"0x30","@!P1  IMAD.WIDE.U32 R10, R23, UR4, R4","2","1,000"',
    '"0x40","SHF.R.S32.HI R3, RZ, 0x1f, R11","6","1,000"',
    '"0x50","LDG.E R9, desc[UR4][R6.64]","12","1,000"',
    '"0x60","EXIT","0","1"',
]) + "\n"


def test_the_busiest_section_is_split_into_opcodes_and_runs(tmp_path, capsys):
    path = tmp_path / "sass.csv"
    path.write_text(CSV)
    assert hotspots.main([str(path), "--show", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kernel: 5 instructions, 3,002 warp instructions executed, 20 stall")
    shares = {op: (n, stall) for op, n, _, stall in
              hotspots.opcode_shares(hotspots.sections(CSV)[1][1])}
    assert shares["IMAD"] == (1000, 0.1) and shares["LDG"] == (1000, 0.6)
    hottest = hotspots.runs(hotspots.sections(CSV)[1][1])[0]
    assert hottest == (1, 3, 1000, 3000, 20)
    assert "    1       2  @!P1  IMAD.WIDE.U32" in out and "    3      12  LDG.E" in out
    assert "cudaCGSynchronize" not in out


def test_a_file_without_sections_is_refused_by_name(tmp_path, capsys):
    path = tmp_path / "details.txt"
    path.write_text("Section: GPU Speed Of Light Throughput\n")
    assert hotspots.main([str(path)]) == 1
    assert "details.txt: no 'Kernel Name' section" in capsys.readouterr().err


def test_the_docstring_examples():
    import doctest

    assert doctest.testmod(hotspots).failed == 0
