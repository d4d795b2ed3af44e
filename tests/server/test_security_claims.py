"""Signed tokens carry typed claims: the same bytes as the mappings they replaced (links already sent keep
working), one purpose's token opens no other, and a payload that is not the claim reads as nothing."""

from __future__ import annotations

from itsdangerous import URLSafeSerializer, URLSafeTimedSerializer

from arbitre.server.security import ResetClaim, Signer, UnsubscribeClaim

KEY = "a site's secret key"


def test_a_claim_is_written_as_the_mapping_it_replaced() -> None:
    signer = Signer(KEY)
    claim = UnsubscribeClaim(u=3, k="message")
    old = URLSafeSerializer(KEY, salt="arbitre-unsubscribe-fixed").dumps({"u": 3, "k": "message"})
    assert signer.make_fixed_token(claim) == old  # a link in an e-mail already sent still reads
    assert signer.read_fixed_token(UnsubscribeClaim, old) == claim
    reset = ResetClaim(u=7, h="0123abcd", t=1_900_000_000)
    timed = URLSafeTimedSerializer(KEY, salt="arbitre-reset").dumps({"u": 7, "h": "0123abcd", "t": 1_900_000_000})
    assert signer.read_token(ResetClaim, timed) == reset
    assert signer.read_token(ResetClaim, signer.make_token(reset)) == reset
    # an unsubscribe link made by make_token (before links had no time in them) still reads
    assert signer.read_fixed_token(UnsubscribeClaim, signer.make_token(claim)) == claim


def test_a_token_opens_only_its_purpose_and_only_with_its_claim() -> None:
    signer = Signer(KEY)
    unsubscribe = signer.make_fixed_token(UnsubscribeClaim(u=3, k="message"))
    assert signer.read_fixed_token(ResetClaim, unsubscribe) is None
    assert signer.read_token(ResetClaim, signer.make_token(UnsubscribeClaim(u=3, k="message"))) is None
    assert Signer("another key").read_fixed_token(UnsubscribeClaim, unsubscribe) is None
    fixed = URLSafeSerializer(KEY, salt="arbitre-unsubscribe-fixed")
    for payload in ({"u": "3", "k": "message"}, {"u": 3}, {"u": True, "k": "message"}, [3, "message"], "3"):
        assert signer.read_fixed_token(UnsubscribeClaim, fixed.dumps(payload)) is None, payload
    timed = URLSafeTimedSerializer(KEY, salt="arbitre-reset")
    assert signer.read_token(ResetClaim, timed.dumps({"u": 7, "h": "x", "t": "soon"})) is None
    assert signer.read_token(ResetClaim, None) is None and signer.read_token(ResetClaim, "x" * 600) is None
