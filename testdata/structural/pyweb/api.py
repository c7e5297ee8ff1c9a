"""FastAPI endpoints for user accounts."""
from typing import Optional

from fastapi import APIRouter, Depends, HTTPException
from pydantic import BaseModel

router = APIRouter(prefix="/users")


class User(BaseModel):
    id: int
    name: str
    email: Optional[str] = None


DB: dict[int, User] = {}


def get_db():
    return DB


@router.get("/{user_id}", response_model=User)
async def read_user(user_id: int, db=Depends(get_db)):
    user = db.get(user_id)
    if user is None:
        raise HTTPException(status_code=404, detail="not found")
    return user


@router.get("/")
async def list_users(
    skip: int = 0,
    limit: int = 100,
    db=Depends(get_db),
):
    users = sorted(db.values(), key=lambda u: u.id)
    return users[skip : skip + limit]


@router.post("/", status_code=201)
async def create_user(user: User, db=Depends(get_db)):
    if user.id in db:
        raise HTTPException(
            status_code=409,
            detail="exists",
        )
    db[user.id] = user
    return user


def build_router(prefix):
    sub = APIRouter(prefix=prefix)

    @sub.get("/search")
    async def search(q: str):
        SQL = """
SELECT id, name
  FROM users
 WHERE name LIKE ?
"""
        matches = [u for u in DB.values() if q.lower() in u.name.lower()]
        return {"query": SQL, "matches": matches}

    @sub.delete("/{user_id}")
    async def delete_user(user_id: int):
        with open("audit.log", "a") as f:
            f.write(f"delete {user_id}\n")
        DB.pop(user_id, None)
        return None

    return sub
