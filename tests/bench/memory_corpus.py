"""Deterministic, realistic text for the memory benchmark: memories, recall queries, turns,
context messages and self-model outcomes.

Statements are built from templates whose slots draw from vocabularies of tools (editors,
languages, databases, infrastructure, apps), people, places, foods and projects (about 1,300
words) and from numbers. Within each vocabulary a word's chance falls with its rank (Zipf,
exponent ``ZIPF_S``), so a few terms ("python", "Alice", "London") are everywhere and most are
rare. Nothing here looks like a secret: no passwords, tokens or key-like strings, which the
service would refuse to store.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

ZIPF_S = 1.1


def _words(text: str) -> list[str]:
    return text.split()


EDITORS = _words("""
    vscode neovim vim emacs intellij pycharm sublime helix zed xcode webstorm goland rider clion
    nano kakoune fleet
""")
LANGS = _words("""
    python typescript go rust java kotlin javascript ruby scala swift elixir haskell php lua zig
    clojure ocaml dart julia erlang perl fsharp nim crystal gleam
""")
DATASTORES = _words("""
    postgres mysql sqlite redis mongodb elasticsearch clickhouse duckdb bigquery snowflake
    redshift dynamodb cockroachdb timescale memcached opensearch cassandra neo4j influxdb
    supabase firebase planetscale mariadb couchdb qdrant weaviate pinecone milvus
""")
INFRA = _words("""
    kubernetes docker aws gcp azure terraform helm ansible heroku vercel netlify cloudflare
    hetzner linode lambda kafka rabbitmq nats pulsar airflow spark flink dagster prefect celery
    pulumi chef puppet podman argocd flux openshift rancher nomad consul packer vagrant proxmox
    fargate cloudrun ecs gke eks aks digitalocean render fly
""")
PROXIES = _words("nginx caddy haproxy envoy traefik istio linkerd cloudflare")
OBSERVABILITY = _words("""
    grafana sentry datadog prometheus loki jaeger honeycomb splunk newrelic kibana tempo
    opentelemetry pagerduty opsgenie bugsnag rollbar
""")
DEV_TOOLS = _words("""
    git pytest docker github ruff jest eslint prettier mypy black gitlab playwright cypress
    vitest mocha selenium pyright flake8 rubocop clippy jenkins circleci buildkite poetry conda
    npm yarn pnpm cargo maven gradle bazel cmake ninja storybook turborepo nx deno bun esbuild
    vite webpack rollup babel swc kubectl minikube k9s tilt skaffold postman insomnia curl
    httpie wireshark tmux zsh fish alacritty kitty wezterm homebrew nix direnv pipx uv hatch
    tox nox pdm lefthook precommit renovate dependabot bitbucket gerrit
""")
FRAMEWORKS = _words("""
    django react fastapi flask rails spring vue svelte angular tailwind htmx pandas numpy
    pytorch tensorflow polars scipy jax keras sqlalchemy alembic prisma hibernate graphql grpc
    nextjs express laravel nestjs remix astro gatsby ember jquery bootstrap celery dramatiq
    pydantic marshmallow starlette litestar sanic tornado aiohttp requests httpx
""")
APPS = _words("""
    notion slack jira obsidian figma confluence linear todoist trello asana miro loom zoom
    excel airtable logseq bear evernote onenote dropbox drive docs sheets keynote
""")
DRINKS = _words("""
    coffee tea espresso latte cappuccino matcha chai kombucha lemonade cocoa smoothies juice
    water cortado americano
""")
TASKS = _words("""
    reviews migrations deploys releases testing debugging profiling refactoring prototyping
    documentation onboarding benchmarks dashboards alerts backups monitoring logging tracing
    scheduling planning estimates retrospectives demos interviews hiring budgeting invoicing
    reporting forecasting analytics experiments rollouts hotfixes triage incidents postmortems
    linting formatting packaging provisioning scaling caching indexing sharding replication
    archiving auditing compliance licensing translations accessibility payments notifications
    search billing checkout onboarding authentication permissions imports exports uploads
    emails newsletters roadmaps specs proposals contracts slides spreadsheets diagrams notebooks
""")
FIRST_NAMES = _words("""
    Alice Sam Priya Tom Maria Ben Chen Fatima Lucas Emma Omar Sofia Raj Hannah Diego Yuki Noah
    Amara Leo Ingrid Kofi Mei Jonas Aisha Mateo Clara Ivan Zara Hugo Nadia Felix Lina Arjun
    Greta Tariq Elena Marco Anya Kenji Rosa Pavel Leila Theo Chloe Sanjay Freya Malik Ines Oscar
    Nora Emil Zainab Henrik Lucia Kwame Astrid Javier Mira Tobias Yasmin Ravi Elsa Karim Paula
    Stefan Amina Bruno Hana Viktor Dalia Jamal Sienna Anders Noor Rafael Iris Dmitri Layla Axel
    Beatriz Wei Selin Caleb Esme Farid Gemma Hiro Isla Jorge Kira Luca Maya Nils Olga Pedro Quinn
    Rhea Soren Talia Umar Vera Wyatt Ximena Yusuf Zoe Adele Bashir Carmen Dario Eun Fiona Gustav
    Hugh Imani Joel Keiko Lars Mina Nikhil Orla Pablo Rania Silas Tomas Ulla Valentina Wanjiru
    Xavier Yara Zeno Abel Bianca Cyrus Daphne Elif Femi Gaia Hamza Ilse Jasper Kalani Lorenzo
    Magnus Nia Otto Petra Ronan Saoirse Tiago Uma Vikram Willa Yosef Zuri Anouk Basil Celeste
    Aditi Bjorn Camila Dev Emeka Farah Gideon Helga Ishaan Jana Kai Lola Mehmet Nadine Obi
    Pia Rashid Sven Tanvi Uri Vivian Wren Yannick Zofia Ada Bogdan Cosima Dante Efua Fabio
    Giulia Hassan Ida Jun Katya Liam Malia Nuno Ola Priyanka Quentin Ruth Sipho Thea Ugo Vlad
    Wendy Xiu Yoko Zainab Arlo Bea Cormac Dina Eli Frida Gael Hedda Idris Juno Kasper Leona
    Mads Nell Osman Pilar Reza Saanvi Tove Valter Wilma Yves Zaid Aurora Bram Ciara Duc Enzo
""")
SURNAMES = _words("""
    Smith Garcia Chen Patel Muller Rossi Kim Silva Nguyen Kowalski Jensen Okafor Tanaka Novak
    Dubois Haddad Larsen Moreau Fischer Romano Ivanova Costa Andersson Mensah Sato Petrov Khan
    Schmidt Lopez Wong Ahmed Becker Ricci Park Santos Tran Nowak Nielsen Adeyemi Suzuki Horvat
    Lambert Nasser Berg Fontaine Weber Greco Popescu Ferreira Lindqvist Owusu Ito Markovic Rahman
    Wagner Torres Huang Malik Hoffmann Marino Choi Oliveira Pham Wozniak Hansen Eze Yamamoto
    Kovacs Girard Aziz Dahl Mercier Schulz Conti Sokolova Rocha Holm Asante Nakamura Bauer Reyes
    Alvarez Bergstrom Castro Dimitrov Eriksen Fernandes Gallagher Hashemi Ibrahim Jovanovic
    Kaur Lindgren Moreno Nakagawa Oyelaran Pereira Quinlan Rasmussen Sandoval Takahashi
    Umarov Vasquez Whitfield Xu Yilmaz Zielinski Abbasi Bianchi Chowdhury Dlamini Esposito
    Fujimoto Gonzaga Halvorsen Iyer Janssen Kamau Lefebvre Mwangi Nair Olsen Pellegrini
""")
CITIES = _words("""
    London Berlin Lisbon Paris Tokyo Seattle Toronto Madrid Amsterdam Dublin Chicago Austin
    Boston Denver Sydney Melbourne Singapore Mumbai Bangalore Nairobi Lagos Cairo Istanbul
    Athens Rome Milan Vienna Prague Warsaw Krakow Budapest Oslo Stockholm Copenhagen Helsinki
    Reykjavik Edinburgh Manchester Glasgow Bristol Porto Seville Valencia Barcelona Lyon
    Marseille Zurich Geneva Munich Hamburg Cologne Brussels Antwerp Rotterdam Utrecht Tallinn
    Riga Vilnius Kyiv Bucharest Sofia Belgrade Zagreb Ljubljana Montreal Vancouver Calgary
    Portland Oakland Phoenix Atlanta Miami Nashville Pittsburgh Philadelphia Baltimore Detroit
    Minneapolis Houston Dallas Mexico Bogota Lima Santiago Quito Montevideo Seoul Osaka Kyoto
    Taipei Manila Jakarta Bangkok Hanoi Dhaka Karachi Lahore Dubai Doha Muscat Accra Kigali
    Dakar Tunis Casablanca Marrakesh Johannesburg Wellington Auckland Brisbane Perth Hobart
    Leeds Bilbao Bologna Turin Naples Gdansk Wroclaw Brno Graz Salzburg Basel Lausanne Bergen
    Aarhus Gothenburg Tampere Tartu Leipzig Dresden Nuremberg Ghent Eindhoven Nantes Bordeaux
    Toulouse Lille Cork Galway Cardiff Belfast Sapporo Fukuoka Busan Chennai Pune Hyderabad
    Kochi Colombo Kathmandu Tbilisi Yerevan Almaty Tashkent Baku Beirut Amman Durban Windhoek
    Lusaka Harare Kampala Mombasa Zanzibar Halifax Ottawa Quebec Boise Tucson Albuquerque
""")
FOODS = _words("""
    pizza sushi ramen tacos curry pasta salad oatmeal tofu falafel hummus dumplings
    pho burritos risotto paella lasagna kimchi bibimbap tempura croissants bagels pancakes
    waffles granola yogurt avocado mango blueberries strawberries peanuts almonds cashews shrimp
    salmon tuna lentils chickpeas quinoa couscous noodles udon soba gnocchi pesto halloumi feta
    mozzarella brie cheddar gouda tahini miso
    chocolate cheesecake tiramisu brownies cookies muffins scones porridge shakshuka biryani
    samosas dal paneer naan injera jollof empanadas ceviche arepas churros gelato sorbet
    mushrooms eggplant zucchini spinach kale broccoli cauliflower beetroot olives capers anchovies
    cilantro garlic ginger chili paprika saffron cardamom cinnamon oregano basil rosemary thyme
""")
PROJECTS = _words("""
    Atlas Phoenix Kestrel Orion Falcon Nimbus Aurora Comet Harbor Beacon Summit Cobalt Quartz
    Onyx Juniper Willow Cedar Maple Aspen Sequoia Heron Osprey Puffin Raven Sparrow Wren Lark
    Finch Condor Albatross Pelican Ibis Vega Sirius Rigel Altair Deneb Polaris Lyra Draco Hydra
    Pegasus Andromeda Cassini Galileo Kepler Hubble Voyager Apollo Gemini Mercury Helios Selene
    Zephyr Boreas Triton Nereid Calypso Meridian Tundra Sahara Fjord Glacier Canyon Delta Mesa
    Lagoon Atoll Basalt Granite Marble Slate Flint Obsidian Topaz Garnet Jade Amber Coral Pearl
    Ember Cinder Spark Blaze Flare Nova Pulsar Quasar Nebula Photon Quantum Vector Tensor Matrix
    Lattice Prism Spectrum Mosaic Tapestry Compass Sextant Anchor Keel Rudder Mast Lantern
    Pinecone Acorn Thistle Clover Bramble Fern Moss Lichen Orchid Lotus Magnolia Dahlia Tulip
    Sentinel Keystone Bastion Citadel Rampart Lighthouse Waypoint Trailhead Basecamp Outpost
    Horizon Zenith Apex Vertex Pinnacle Crest Ridge Bluff Cove Inlet Estuary Tributary Cascade
    Rapids Eddy Current Undertow Monsoon Cyclone Squall Drizzle Hailstone Frost Thaw Solstice
    Equinox Eclipse Perigee Apogee Parallax Redshift Doppler Tesseract Fractal Helix Spiral
""")
TEAMS = _words("""
    platform payments growth search infra data mobile security billing identity checkout
    analytics design support research operations marketing finance legal recruiting frontend
    backend reliability networking storage messaging compliance localization partnerships
""")
HOBBIES = _words("""
    climbing running cycling swimming yoga chess pottery painting photography gardening baking
    knitting woodworking surfing skiing hiking rowing tennis badminton squash bouldering fencing
    judo karate archery sailing kayaking birdwatching astronomy calligraphy origami guitar piano
    violin cello drums singing salsa tango juggling podcasting blogging volunteering beekeeping
""")
LANGUAGES = _words("""
    Portuguese Spanish French German Italian Dutch Polish Japanese Korean Mandarin Cantonese
    Hindi Tamil Bengali Urdu Arabic Turkish Greek Swedish Norwegian Danish Finnish Icelandic
    Czech Hungarian Romanian Ukrainian Russian Swahili Yoruba Amharic Hebrew Persian Thai
""")
WEEKDAYS = _words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
MONTHS = _words("""
    January February March April May June July August September October November December
""")
REGIONS = _words("""
    europe-west1 us-east-1 eu-central-1 us-west-2 ap-southeast-1 eu-north-1 ca-central-1
""")
CHANNELS = _words("email phone Slack Teams Signal WhatsApp SMS Zoom")
DOCS = _words("changelogs runbooks specs newsletters proposals memos reports notes")
RELATIONS = _words("sister brother daughter son partner cousin niece nephew")
SUBJECTS = _words("""
    medicine law architecture biology chemistry physics history economics music design
    philosophy nursing engineering mathematics linguistics geology
""")
TIMES = [f"{h}:{m:02d}" for h in range(7, 19) for m in (0, 15, 30, 45)]


class Zipf:
    """Draws from a list with a chance proportional to ``1 / rank ** ZIPF_S``."""

    def __init__(self, items: list[str]) -> None:
        self.items = list(dict.fromkeys(items))
        self.cumulative = list(
            itertools.accumulate(1 / rank**ZIPF_S for rank in range(1, 1 + len(self.items)))
        )

    def __call__(self, rng: random.Random) -> str:
        point = rng.random() * self.cumulative[-1]
        return self.items[bisect.bisect_left(self.cumulative, point)]


def _number(low: int, high: int) -> Callable[[random.Random], str]:
    return lambda rng: str(rng.randint(low, high))


SLOTS: dict[str, Callable[[random.Random], str]] = {
    "editor": Zipf(EDITORS),
    "lang": Zipf(LANGS),
    "datastore": Zipf(DATASTORES),
    "infra": Zipf(INFRA),
    "proxy": Zipf(PROXIES),
    "observability": Zipf(OBSERVABILITY),
    "devtool": Zipf(DEV_TOOLS),
    "framework": Zipf(FRAMEWORKS),
    "app": Zipf(APPS),
    "drink": Zipf(DRINKS),
    "task": Zipf(TASKS),
    "first": Zipf(FIRST_NAMES),
    "last": Zipf(SURNAMES),
    "city": Zipf(CITIES),
    "food": Zipf(FOODS),
    "project": Zipf(PROJECTS),
    "team": Zipf(TEAMS),
    "hobby": Zipf(HOBBIES),
    "language": Zipf(LANGUAGES),
    "weekday": Zipf(WEEKDAYS),
    "month": Zipf(MONTHS),
    "region": Zipf(REGIONS),
    "channel": Zipf(CHANNELS),
    "doc": Zipf(DOCS),
    "relation": Zipf(RELATIONS),
    "field": Zipf(SUBJECTS),
    "time": Zipf(TIMES),
    "n": _number(2, 60),
    "port": _number(3000, 9999),
    "version": lambda rng: f"{rng.randint(1, 17)}.{rng.randint(0, 12)}",
}

# (kind, domain, template): third-person statements, as an agent's memory holds them.
MEMORY_TEMPLATES = [
    ("preference", "coding", "The user prefers {devtool} over {devtool2} for {task} on {project}."),
    ("preference", "coding", "The user edits {lang} code in {editor} with a dark theme."),
    ("fact", "coding", "The {team} team deploys {project} on {weekday}s after the {time} sync."),
    ("fact", "coding", "{project} runs on {infra} in {region} with {n} replicas behind {proxy}."),
    ("fact", "coding", "The {project} service listens on port {port} and logs to {observability}."),
    ("fact", "coding", "{project} pins {framework} {version} until the {task} work lands."),
    ("fact", "work", "{first} {last} owns {project} {task} and reviews its pull requests."),
    ("fact", "work", "The user's manager is {first} {last}, who works from {city}."),
    ("fact", "work", "{first} from the {team} team prefers {channel} for urgent questions."),
    ("fact", "work", "The {team} team holds {task} every {weekday} at {time}."),
    ("fact", "work", "The {project} backlog has {n} open tickets about {task}."),
    ("instruction", "coding", "Always run {devtool} before merging changes to {project}."),
    ("instruction", "coding", "Never deploy {project} on {weekday}s without telling {first}."),
    ("instruction", "work", "Never schedule meetings with {first} {last} before {time}."),
    ("instruction", "writing", "Write {doc} for {project} in plain English with short sentences."),
    ("instruction", "writing", "Send {first} a summary of {task} by {channel} every {weekday}."),
    ("lesson", "coding", "The {project} outage in {month} came from a {infra} misconfiguration."),
    ("lesson", "coding", "Running {task} on {project} without {devtool} broke the {team} build."),
    ("lesson", "work", "Estimates for {task} on {project} ran {n} percent over last quarter."),
    ("pattern", "coding", "When {project} builds fail, the user checks {observability} first."),
    ("pattern", "work", "The user writes {doc} on {weekday} mornings before standup."),
    ("pattern", "work", "The user blocks {n} hours a week for {task} on {project}."),
    ("pattern", "tools", "The user keeps {task} notes in {app} and links them from {app2}."),
    (
        "preference",
        "tools",
        "The user runs {devtool} inside {editor} for {task} on {lang} projects.",
    ),
    ("fact", "personal", "The user lives in {city} and grew up near {city2}."),
    ("fact", "personal", "The user speaks {language} with {first} and English at work."),
    ("fact", "personal", "The user takes {hobby} lessons on {weekday} evenings in {city}."),
    ("fact", "family", "The user's {relation} {first} studies {field} in {city}."),
    ("fact", "family", "The user's {relation} {first} has a birthday in {month}."),
    ("fact", "health", "The user is allergic to {food} and avoids {food2} too."),
    ("preference", "health", "The user goes {hobby} {n} times a month with {first}."),
    ("preference", "food", "The user orders {food} with {food2} at the place near the office."),
    ("preference", "food", "The user drinks {drink} in the morning and never after {time}."),
    ("fact", "food", "{first} {last} cooks {food} for the {team} team lunch on {weekday}s."),
    ("preference", "travel", "The user flies to {city} every {month} to visit {first}."),
    ("preference", "travel", "The user books an aisle seat and trains over flights to {city}."),
    ("fact", "travel", "The {team} offsite is in {city} in {month}, organised by {first}."),
    ("preference", "writing", "The user drafts {doc} in {app} and shares them with {first}."),
    ("preference", "coding", "The user prefers {devtool} for {task}."),
    ("fact", "work", "{first} {last} leads the {team} team."),
    ("fact", "personal", "The user's favourite city is {city}."),
    ("fact", "health", "The user cannot eat {food} or {food2}."),
    (
        "lesson",
        "coding",
        "Switching {project} from {datastore} to {datastore2} cut {task} time by {n} percent, "
        "but the {team} team rewrote its alerts.",
    ),
    (
        "preference",
        "work",
        "For {task} the user wants a written agenda from {first} the day before, and no "
        "meetings on {weekday}s.",
    ),
    (
        "pattern",
        "travel",
        "Before each trip to {city} the user checks the {hobby} clubs nearby and packs {food} "
        "for the flight.",
    ),
]

# Durable statements in a user's words, of the kinds the rules extractor files.
TURN_TEMPLATES = [
    "I prefer {devtool} for {task}.",
    "We deploy {project} on {weekday}s.",
    "I live in {city}.",
    "My manager is {first} {last}.",
    "Our standup is at {time}.",
    "I'm allergic to {food}.",
    "Always use {devtool} when working on {project}.",
    "Never book meetings before {time} on {weekday}s.",
    "I write {project} code in {lang}.",
    "{first} {last} owns the {project} service.",
    "Our {project} database runs on {datastore} {version}.",
    "I take {hobby} lessons every {weekday}.",
    "From now on, send {task} updates to {first} by {channel}.",
    "My {relation} {first} lives in {city}.",
]
SMALL_TALK = ["Thanks!", "Good morning!", "Haha, nice one.", "That helped a lot, thanks."]
TURN_QUESTIONS = [
    "What's my timezone?",
    "Which editor do I use?",
    "Where do we deploy {project}?",
    "Who owns {project}?",
    "Thanks! Which cloud are we on now?",
    "When is our standup?",
]
QUESTIONS = [
    "which editor does the user prefer",
    "where does the user live",
    "who is the user's manager",
    "when does the team deploy {project}",
    "what is the user allergic to",
    "which port does {project} listen on",
    "what does the user drink in the morning",
    "who owns {project}",
    "how does the {team} team prefer to be contacted",
    "what caused the {project} outage",
]
NO_MATCH = ["qorvintex", "zumbleflax prattigow", "wexthorn plimsy quade", "snorvalid", "yblort"]
STOP = frozenset(_words("a an the of in on at for to and with by from every before after is are"))
_SLOT = re.compile(r"\{(\w+?)\d?\}")


def fill(template: str, rng: random.Random) -> str:
    """Fill each ``{slot}`` of ``template`` (``{app2}`` is another draw of ``app``)."""
    return _SLOT.sub(lambda match: SLOTS[match.group(1)](rng), template)


def normalised(text: str) -> str:
    """Lower-case ``text`` without punctuation: two statements equal here are one memory."""
    return " ".join(re.sub(r"[^\w\s]+", " ", text.casefold().replace("'", "")).split())


@dataclass(frozen=True)
class Statement:
    content: str
    kind: str
    domain: str

    def body(self) -> dict[str, str]:
        return {"content": self.content, "kind": self.kind, "domain": self.domain}


def memories(seed: int = 1) -> Iterator[Statement]:
    """Yield distinct statements without end, the same ones for the same ``seed``."""
    rng = random.Random(seed)
    seen: set[str] = set()
    while True:
        kind, domain, template = rng.choice(MEMORY_TEMPLATES)
        content = fill(template, rng)
        key = normalised(content)
        if key not in seen:
            seen.add(key)
            yield Statement(content, kind, domain)


def recall_queries(count: int, seed: int = 2) -> list[tuple[str, str]]:
    """Return ``count`` ``(category, query)``: corpus terms, questions and no-match queries.

    Term queries take 1-4 words of a statement drawn like the corpus's, so their terms follow its
    distribution: some are common ("user", "python"), most are rare.
    """
    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        draw = rng.random()
        if draw < 0.05:
            queries.append(("no match", rng.choice(NO_MATCH)))
        elif draw < 0.20:
            queries.append(("question", fill(rng.choice(QUESTIONS), rng)))
        else:
            statement = normalised(fill(rng.choice(MEMORY_TEMPLATES)[2], rng))
            words = [w for w in statement.split() if w not in STOP]
            picked = rng.sample(words, min(len(words), rng.randint(1, 4)))
            queries.append((f"{len(picked)} terms", " ".join(picked)))
    return queries


def turns(count: int, seed: int = 3) -> list[tuple[str, str]]:
    """Return ``count`` ``(category, user message)``: statements, small talk, questions, repeats."""
    rng = random.Random(seed)
    said: list[str] = []
    out = []
    for _ in range(count):
        draw = rng.random()
        if draw < 0.15 and said:
            message = rng.choice(said)
            if rng.random() < 0.5:  # a restatement in looser wording folds into the same memory
                message = message.rstrip(".").lower()
            out.append(("restatement", message))
        elif draw < 0.30:
            out.append(("question", fill(rng.choice(TURN_QUESTIONS), rng)))
        else:
            statement = fill(rng.choice(TURN_TEMPLATES), rng)
            said.append(statement)
            if draw < 0.45:
                out.append(("with small talk", f"{rng.choice(SMALL_TALK)} {statement}"))
            else:
                out.append(("statement", statement))
    return out


ASSISTANT_REPLIES = ["Got it.", "Noted, I'll remember that.", "Understood.", "Thanks, noted."]

# Messages for POST /context. Those that trigger name something concrete mid-sentence (a name, a
# place, a port, a time, an identifier), so that no term opens the sentence; those that do not
# are lowercase questions without a number, a quotation or a capital, whose words still rank
# memories for the index. The service passes over a term any of whose words more than 200
# memories hold, so a full name with a common first name, a time ("16:00": "00") or a region
# ("eu-central-1": "1") triggers less as the memories grow.
CONTEXT_TRIGGERS = [
    (0.30, "name", "Can you check with {first} about the {project} rollout?"),
    (0.20, "full name", "I still need to ask {full_name} about the {task} plan."),
    (0.15, "place", "Should the {team} offsite move to {city} next year?"),
    (0.15, "port", "Is anything else listening on port {port} these days?"),
    (0.10, "time", "Can we move the {team} sync to {time} instead?"),
    (0.10, "region", "Is the cluster in {region} still healthy?"),
]
CONTEXT_PLAIN = [
    "how should i plan the week",
    "what should i focus on today",
    "can you help me write the {doc} for this sprint",
    "any tips for {task} this week",
    "remind me how i like my {drink}",
    "what do i usually eat for lunch",
    "is it a good idea to learn {lang} this year",
    "summarise what we decided about {task}",
    "how do i get better at {hobby}",
    "what was the plan for the week again",
    "can you draft a short reply saying i'll be late",
    "which {app} workspace do i keep my notes in",
]
_HELD_WORD = re.compile(r"[\w:-]+")
_FULL_NAME = re.compile(r"\b([A-Z]\w+) ([A-Z]\w+)\b")
_PORT = re.compile(r"\bport (\d+)\b")


def context_messages(count: int, held: list[str], seed: int = 4) -> list[tuple[str, str]]:
    """Return ``count`` ``(kind, message)`` for POST /context, half of them naming a concrete term.

    A message that triggers names what a memory of ``held`` (the contents the service holds)
    names: a first name, project, place, time or region drawn uniformly from those of the
    vocabulary that some memory holds (so most are the rarer ones a message names in particular),
    a full name or a port drawn uniformly from those held. The other half are ``CONTEXT_PLAIN``,
    kind "none".
    """
    rng = random.Random(seed)
    words = {word for text in held for word in _HELD_WORD.findall(text)}
    firsts, lasts = set(FIRST_NAMES), set(SURNAMES)
    found = {
        "full_name": {
            f"{first} {last}"
            for text in held
            for first, last in _FULL_NAME.findall(text)
            if first in firsts and last in lasts
        },
        "port": {match.group(1) for text in held for match in _PORT.finditer(text)},
    }
    for slot, vocabulary in (
        ("first", FIRST_NAMES),
        ("project", PROJECTS),
        ("city", CITIES),
        ("time", TIMES),
        ("region", REGIONS),
    ):
        found[slot] = {word for word in vocabulary if word in words}
    drawn = {slot: sorted(values) for slot, values in found.items()}
    # A template with a slot that nothing held fills is left out (a tiny corpus has no port).
    weights = [
        weight * all(drawn.get(slot, True) for slot in re.findall(r"\{(\w+)\}", template))
        for weight, _, template in CONTEXT_TRIGGERS
    ]
    out = []
    for index in range(count):
        if index % 2:
            message = fill(rng.choice(CONTEXT_PLAIN), rng)
            assert message == message.lower() and not re.search(r"[\d\"`/_-]", message), message
            out.append(("none", message))
            continue
        _, kind, template = rng.choices(CONTEXT_TRIGGERS, weights)[0]

        def filled(match: re.Match[str]) -> str:
            name = match.group(1)
            return rng.choice(drawn[name]) if name in drawn else SLOTS[name](rng)

        message = re.sub(r"\{(\w+)\}", filled, template)
        out.append((kind, message))
    return out


FAILURE_PATTERNS = [
    "shipped without a rollback plan",
    "skipped the staging smoke test",
    "answered from memory without checking the docs",
    "assumed the default timezone",
    "changed the schema and the code in one deploy",
    "forgot to tell the on-call",
    "estimated before reading the code",
    "trusted a cached value after the migration",
]
STRATEGIES = [
    "write the rollback steps first",
    "run the smoke test on staging",
    "check the runbook before answering",
    "ask which timezone applies",
    "split schema and code changes",
    "post in the team channel before starting",
]


def outcomes(count: int, seed: int = 5) -> list[dict[str, Any]]:
    """Return ``count`` bodies for POST /self-model/outcome over the team names as domains.

    About 70% succeed; a failure carries a failure pattern half the time and a strategy a third,
    drawn from short lists, so that notes both repeat (counted again) and arrive new.
    """
    rng = random.Random(seed)
    bodies: list[dict[str, object]] = []
    for _ in range(count):
        body: dict[str, object] = {"domain": rng.choice(TEAMS), "success": rng.random() < 0.7}
        if not body["success"]:
            if rng.random() < 0.5:
                body["failurePattern"] = rng.choice(FAILURE_PATTERNS)
            if rng.random() < 0.33:
                body["strategy"] = rng.choice(STRATEGIES)
        bodies.append(body)
    return bodies
