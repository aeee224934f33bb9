"""formats.figures: the one writer of the reports' figures (atomic, the bytes savefig writes)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from pipeline.formats.figures import figure_png, save_figure, write_png  # noqa: E402


def _figure(dpi=100):
    fig, ax = plt.subplots(figsize=(3, 2), dpi=dpi)
    ax.bar([1, 2, 3], [0.2, 0.5, 0.3], color="tab:blue")
    ax.set_title("a figure")
    fig.tight_layout()
    return fig


def _direct(save_dpi=None, figure_dpi=100) -> bytes:
    fig = _figure(figure_dpi)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", **({} if save_dpi is None else {"dpi": save_dpi}))
    plt.close(fig)
    return buf.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("dpi", [None, 120])
def test_save_figure_writes_what_savefig_writes_and_closes_the_figure(tmp_path, dpi):
    fig = _figure()
    target = tmp_path / "sub" / "plot.png"
    assert save_figure(fig, target, dpi=dpi) == target
    assert target.read_bytes() == _direct(dpi)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not plt.fignum_exists(fig.number)
    assert sorted(p.name for p in target.parent.iterdir()) == ["plot.png"]     # no temporary file left


@pytest.mark.slow
def test_save_figure_takes_the_format_from_the_target_not_the_temporary_name(tmp_path):
    save_figure(_figure(), tmp_path / "plot.svg")
    assert (tmp_path / "plot.svg").read_text().lstrip().startswith("<?xml")
    save_figure(_figure(), tmp_path / "plot.bin", fmt="png")
    assert (tmp_path / "plot.bin").read_bytes()[:4] == b"\x89PNG"


def test_a_failed_save_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "plot.png"
    target.write_bytes(b"old")
    fig = _figure()

    def broken(self, fname, **kw):
        with open(fname, "wb") as f:
            f.write(b"half a PNG")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(type(fig), "savefig", broken)
    with pytest.raises(OSError):
        save_figure(fig, target)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["plot.png"]
    assert not plt.fignum_exists(fig.number)


@pytest.mark.slow
def test_figure_png_is_the_png_savefig_writes(tmp_path):
    fig = _figure(dpi=110)
    assert figure_png(fig, dpi=120) == _direct(120, figure_dpi=110)
    assert not plt.fignum_exists(fig.number)


def test_write_png_writes_the_bytes_atomically_and_refuses_other_bytes(tmp_path, monkeypatch):
    from pipeline.formats import files

    png = figure_png(_figure())
    written = []
    real = files.atomic_path

    def spy(target):
        written.append(target)
        return real(target)

    monkeypatch.setattr("pipeline.formats.figures.atomic_path", spy)
    assert write_png(tmp_path / "metrics.png", png) == tmp_path / "metrics.png"
    assert (tmp_path / "metrics.png").read_bytes() == png and written == [tmp_path / "metrics.png"]
    with pytest.raises(ValueError, match="not PNG bytes"):
        write_png(tmp_path / "other.png", b"<svg/>")
    assert not (tmp_path / "other.png").exists()
