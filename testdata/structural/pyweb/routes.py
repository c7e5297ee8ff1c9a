"""HTTP routes of the inventory service."""
import logging
from functools import wraps

from flask import Flask, abort, jsonify, request

app = Flask(__name__)
log = logging.getLogger(__name__)

ITEMS = {}


def require_token(view):
    @wraps(view)
    def wrapper(*args, **kwargs):
        token = request.headers.get("Authorization", "")
        if not token.startswith("Bearer "):
            abort(401)
        return view(*args, **kwargs)

    return wrapper


@app.get("/health")
def health():
    return {"status": "ok"}


@app.get("/items/<int:item_id>")
def get_item(item_id):
    item = ITEMS.get(item_id)
    if item is None:
        abort(404)
    return jsonify(item)


@app.get(
    "/items",
    strict_slashes=False,
)
def list_items():
    """List the items.

    Query arguments:
        limit -- at most this many
    """
    limit = int(request.args.get("limit", 50))

    def visible(item):
        return not item.get("hidden", False)

    out = [i for i in ITEMS.values() if visible(i)]
    return jsonify(out[:limit])


@app.post("/items")
@require_token
def create_item():
    body = request.get_json(force=True)
    if "name" not in body:
        return {"error": "name is required"}, 400
    item_id = max(ITEMS, default=0) + 1
    ITEMS[item_id] = {"id": item_id, "name": body["name"]}
    log.info("created item %d", item_id)
    return ITEMS[item_id], 201


class Admin:
    def __init__(self, app):
        self.app = app

    def register(self):
        @self.app.get("/admin/stats")
        def stats():
            counts = {
                "items": len(ITEMS),
                "hidden": sum(1 for i in ITEMS.values() if i.get("hidden")),
            }
            return counts

        @app.get("/admin/items/<int:item_id>/history")
        def history(item_id):
            try:
                rows = load_history(item_id)
            except KeyError:
                abort(404)
            else:
                for row in rows:
                    if row.get("deleted"):
                        continue
                    yield row

        return stats, history


def load_history(item_id):
    if item_id not in ITEMS:
        raise KeyError(item_id)
    return [
        {"id": item_id, "event": "created"},
    ]


if __name__ == "__main__":
    @app.get("/debug/routes")
    def routes():
        lines = []
        for rule in app.url_map.iter_rules():
            lines.append(f"{rule.endpoint}: {rule.rule}")
        return "\n".join(lines)

    app.run(debug=True)
