"""Price oracle (examples/oracle.py): a runner job, its result, and a timeout timer."""
from cowboy_test import raises, Unauthorized


def test_a_delivered_result_sets_the_price(chain, deploy, alice, bob):
    feed = deploy("oracle.py", "https://prices.example/cby", 10**6, sender=alice, value=100 * 10**9)
    with raises(Unauthorized):
        feed.request(sender=bob)
    receipt = feed.request(sender=alice)
    job = receipt.value
    assert [j["id"] for j in receipt.jobs] == [job]
    assert receipt.jobs[0]["type"] == "http"
    delivered = chain.inject_result(job, {"price": 4242})
    assert delivered[0].ok, delivered[0].error
    assert delivered[0].event("Price") == {"price": 4242}
    assert feed.call("price") == [4242, chain.height]
    assert feed.storage("pending") is None


def test_without_a_result_the_timer_gives_up(chain, deploy, alice):
    # the feed pays for the job and for its timeout timer
    feed = deploy("oracle.py", "https://prices.example/cby", 10**6, value=100 * 10**9)
    job = feed.request().value
    fired = chain.advance(30)
    assert [r.handler for r in fired] == ["on_timeout"]
    assert fired[0].value is True
    assert fired[0].event("Timeout") == {"job": job}
    assert feed.storage("pending") is None
