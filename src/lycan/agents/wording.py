"""Wording speech acts: many realisations per act and persona, each checked by the facts it states.

The planner decides what a seat says (`lycan.agents.speech.SpeechAct`: a claim, a result, a
suspicion with the events it rests on, an answer to an accuser, a question, a vote); this module
says it in words. `realise` writes candidate utterances from a grammar of realisations per act
kind, shaped by the seat's `Persona` (its temperament picks openers and asides, its verbosity how
much is said around the acts, its habits the questions, plans, hedges and emphasis it adds);
`check_wording` keeps a candidate only if the talk reader (`lycan.beliefs.reader`) reads back
exactly the statements of the act's template words, it names exactly the players the act does, says no
role word the act does not, and none of the voice faults of `lycan.agents.phrasing` (error text,
self-narration, a werewolf admitting its side, a stammer); and `choose` speaks the candidate least
like what was already said in the game (no sentence said before at the table, then the fewest word
pairs already heard), so seats do not repeat each other and a seat does not repeat itself.

Reasons are spoken in one of the wordings `lycan.render.explanations` gives for the event they cite
("they voted against me", "they cast a vote against me"), so a listener, and `lycan.eval.speech`,
can check them against the record.
No realisation uses an ASCII comma, which AIWolf NLP servers reject in utterances.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lycan.agents.persona import Persona
from lycan.agents.phrasing import names_in, role_words, voice_fault, words
from lycan.agents.speech import OPINIONS, SpeechAct
from lycan.beliefs.reader import reader_for
from lycan.rules.roles import Species
from lycan.rules.talk import spoken_length

CANDIDATES = 12
"""Grammar candidates `realise` writes per utterance."""

# ------------------------------------------------------------------ the grammar
# `{t}` the act's target, `{to}` the seat addressed, `{role}` a role, `{res}` a result ("a werewolf",
# "human"), `{when}` the night of a result ("last night", "on night 2"), `{why}` the reasons.
_FRAMES: dict[str, tuple[str, ...]] = {
    "greet": (
        "Good morning everyone.",
        "Morning all.",
        "Hello everyone.",
        "Hi all.",
        "Good morning table.",
        "Hello hello.",
        "Morning everybody.",
        "Hey everyone.",
        "Greetings all.",
        "Good morning to you all.",
        "Hey folks.",
        "Hi there.",
        "Hello friends.",
        "Morning folks.",
        "Hi hi.",
        "Good day all.",
        "Howdy all.",
        "Hi team.",
        "Hello village.",
    ),
    "greet_more": (
        "Let us find the werewolves together.",
        "Let's find the wolves before they find us.",
        "Keep your eyes open today.",
        "Someone here is not who they say they are.",
        "We have a long day ahead.",
        "Let's listen carefully to each other.",
        "Watch who talks and who hides.",
        "Stay sharp everyone.",
        "Let's get through this together.",
        "May the village win this one.",
        "I'm ready to hear what you all have to say.",
        "Let's be honest with each other today.",
        "Time to work out who the wolves are.",
        "I have a feeling this will be a tough one.",
        "Let's keep our wits about us.",
        "Trust has to be earned today.",
        "I'm watching closely.",
        "Let's hear from everyone.",
        "Nobody is above suspicion.",
        "Let's not rush anything.",
        "Speak up if you know something.",
        "Let's keep it honest.",
        "Eyes open and ears open.",
        "I hope we all make it through.",
        "Quiet players worry me.",
        "Let's be smart about this.",
        "[Let's|We need to|We have to] [find|catch|root out|hunt down] the "
        "[wolves|werewolves] [today|together|before they find us|before it's too late].",
        "[Keep|Let's keep] [your|our] [eyes|ears|wits] [open|sharp|about us] [today|everyone|all day].",
        "[I'm|I am] [ready|happy|curious] to hear [what you all think|everyone's reads|what you have to say].",
    ),
    "claim": (
        "I am the {role}.",
        "I'm the {role}.",
        "I am the real {role}.",
        "Time to come out: I am the {role}.",
        "I'll say it plainly. I am the {role}.",
        "You should know I'm the {role}.",
        "Let me reveal myself: I am the {role}.",
        "My role is {role}.",
    ),
    "divined": (
        "{When} I divined {t}: {res}.",
        "{When} I divined {t} and {t} is {res}.",
        "I divined {t} {when} and {t} is {res}.",
        "My divination {when} says {t} is {res}.",
        "{When} I divined {t} and the result was {res}.",
        "I divined {t} {when}: {res}.",
        "{When} my divination showed {t} is {res}.",
        "Here is my result: {when} I divined {t} and {t} is {res}.",
    ),
    "medium": (
        "{t} who was executed was {res}.",
        "My reading says {t} was {res}.",
        "My reading says {t} who was executed was {res}.",
        "{t} who we executed was {res}.",
    ),
    "protected": (
        "Last night I protected {t}.",
        "I guarded {t} last night.",
        "Last night I kept {t} safe.",
        "I protected {t} last night.",
    ),
    "vote": (
        "I will vote for {t}.",
        "My vote goes to {t}.",
        "I'm voting for {t} today.",
        "I will vote for {t} today.",
        "Today I vote for {t}.",
        "I'll vote for {t}.",
        "My vote is on {t}.",
        "I am voting for {t}.",
        "I'm going to vote for {t}.",
        "{t} gets my vote.",
        "{t} gets my vote today.",
        "My ballot goes to {t}.",
        "I'm casting my vote for {t}.",
        "I'll be voting {t}.",
        "I'm going with {t} at the vote.",
        "I want to execute {t} today.",
        "I'm voting to execute {t}.",
        "I say we vote out {t}.",
        "My vote today is {t}.",
        "Count my vote for {t}.",
        "I'll put my vote on {t}.",
        "I plan to vote for {t}.",
        "I intend to vote for {t}.",
        "I'm leaning toward voting {t}.",
        "{t} is getting my vote.",
        "I'll cast my vote against {t}.",
        "I'm voting against {t}.",
        "{t} has my vote.",
        "My vote is for {t} today.",
        "I'll back a vote on {t}.",
        "[I will|I'll|I'm going to|I plan to|I intend to|I'm about to] vote "
        "[for|against] {t}[ today| this round| when it's time| at the ballot|].",
        "My vote [goes to|is going to|will go to|lands on|is on] {t}[ today| this round| this time|].",
        "{t} [gets|has|is getting|will get] my vote[ today| this round| this time|].",
        "[I'm|I am] voting [for|against] {t}[ today| this round| this time|].",
        "[Put me down|Mark me down|Count me in] as a vote for {t}[ today|].",
        "[When the vote comes|At the vote|Come vote time|When we vote] I'm [voting for|going with|voting against] {t}.",
        "My vote [today |this round |]is for {t}.",
    ),
    "suspect": (
        "I suspect {t} because {why}.",
        "I suspect {t} since {why}.",
        "I suspect {t}. {Why}.",
        "{t} is suspicious because {why}.",
        "I'm suspicious of {t} because {why}.",
        "I suspect {t} and here is why: {why}.",
        "{t} looks like a wolf to me because {why}.",
        "My eye is on {t} because {why}.",
        "{t} worries me because {why}.",
        "I have doubts about {t} since {why}.",
        "Something is off with {t}: {why}.",
        "I don't trust {t} because {why}.",
        "{t} bothers me. {Why}.",
        "I find {t} suspicious because {why}.",
        "My suspicion falls on {t} because {why}.",
        "{t} seems shady to me since {why}.",
        "{t} is my top suspect because {why}.",
        "I have my eye on {t}. {Why}.",
        "I'm wary of {t} because {why}.",
        "{t} strikes me as a wolf because {why}.",
        "{t} has me worried. {Why}.",
        "[I suspect|I'm suspicious of|I have doubts about|I don't trust|I'm wary of|I'm uneasy about] {t} "
        "[because|since] {why}.",
        "{t} [looks|seems] [suspicious|shady|off] to me [because|since] {why}.",
        "[My suspicion falls on|My eye is on|My doubts are on|I'm looking hard at] {t}"
        "[ today| right now|] [because|since] {why}.",
        "{t} [is my top suspect|is my main suspect|is the one I doubt most|is at the top of my list] "
        "[because|since] {why}.",
        "I [have|keep having] [doubts|my doubts] about {t}. {Why}.",
        "Something is off with {t}[ today| right now|]. {Why}.",
    ),
    "suspect_bare": (
        "I suspect {t}.",
        "I suspect {t} for now.",
        "{t} is suspicious.",
        "I'm suspicious of {t}.",
        "My eye is on {t}.",
        "{t} worries me.",
        "I don't trust {t}.",
        "{t} bothers me.",
        "I find {t} suspicious.",
        "{t} seems shady to me.",
        "I'm wary of {t}.",
        "{t} is my top suspect.",
        "[I suspect|I'm suspicious of|I have doubts about|I'm wary of|I'm uneasy about] {t}[ today| right now|].",
        "{t} [looks|seems] [suspicious|shady|off] to me[ today| right now|].",
        "[My suspicion falls on|My eye is on|My doubts are on|I'm looking hard at] {t}[ today| right now|].",
        "{t} [is my top suspect|is my main suspect|is the one I doubt most|is at the top of my list]"
        "[ today| right now|].",
    ),
    "trust": (
        "I trust {t}.",
        "I believe {t}.",
        "I trust {t} for now.",
        "I'm inclined to trust {t}.",
        "{t} seems honest to me.",
        "I believe {t} is telling the truth.",
        "I'm with {t} on this.",
        "{t} has my trust.",
        "I take {t} at their word.",
        "I think {t} is genuine.",
        "[I trust|I believe|I'm inclined to trust|I'm willing to trust] {t}[ today| right now| so far|].",
        "{t} [seems|looks|sounds] [honest|genuine|sincere|trustworthy] to me[ today| so far|].",
    ),
    "liar": (
        "{t} is lying about being the {role}.",
        "{t} is a fake {role}.",
        "{t} is not the real {role}.",
        "{t} is lying about being the {role}. Don't believe {t}.",
        "Don't believe {t}. {t} is not the real {role}.",
        "{t} is no {role}.",
        "{t} is faking the {role} claim.",
        "{t} lied about being the {role}.",
        "{t} [is lying|is not telling the truth|is not being honest] about being the {role}.",
        "{t} is [a fake|not the real|no real] {role}[ in my view| to me|].",
    ),
    "nothing": (
        "I have no strong suspicion yet.",
        "I don't have a strong read on anyone yet.",
        "Nobody stands out to me yet.",
        "I'm still making up my mind.",
        "It's too early for me to point at anyone.",
        "I want to hear more before I accuse anyone.",
        "I don't know who it is yet.",
        "No strong feeling about anyone so far.",
        "I have no read on anyone yet.",
        "Nobody jumps out at me so far.",
        "I'm undecided for now.",
        "I need more to go on.",
        "Hard to say who it is yet.",
        "I'm not ready to point fingers.",
        "Nothing solid yet from where I sit.",
        "I'm still listening before I pick anyone.",
        "No clear suspect for me yet.",
        "I can't call it yet.",
        "Still too murky for me.",
        "Let me hear a bit more first.",
        "I'm keeping an open mind for now.",
        "Give me another round before I decide.",
        "[I have|I've got] no [strong|clear|real] [read|suspicion|lean] [yet|so far|for now].",
        "I don't have a [strong|clear|real] [read|suspicion|lean] [yet|so far|for now].",
        "[Nobody|No one] [stands out|jumps out|looks off|seems off] to me [yet|so far|for now].",
        "I'm [still|] [undecided|thinking|listening|on the fence|weighing it up] [for now|so far|at the moment].",
        "[I want to|I'd like to|I need to] hear [more|a bit more|from everyone] before I "
        "[accuse anyone|point at anyone|pick a name|decide].",
        "[Too early|Still too early|Way too early] for me to [point at anyone|name anyone|pick a suspect|call it].",
    ),
    "attack": (
        "Let's attack {t}.",
        "Let's attack {t} tonight.",
        "Let's attack {t} this time.",
        "We should attack {t}.",
    ),
    "plan": (
        "I will pretend to be the seer.",
        "I will pretend to be the seer tomorrow.",
    ),
    "answer": (
        "{to} I am not a werewolf.",
        "{to} you have the wrong person.",
        "{to} you're wrong about me.",
        "{to} I am on the village side.",
        "{to} look elsewhere. It isn't me.",
        "{to} that's a mistake. I'm not a wolf.",
        "{to} why me? I am not a werewolf.",
        "{to} I'm not the wolf here.",
        "{to} wrong target. I'm with the village.",
        "{to} you've got me wrong.",
        "{to} I promise I'm not a werewolf.",
        "{to} check my votes. I'm not your wolf.",
        "{to} it's not me. I'm on your side.",
        "{to} I'm one of the good guys.",
        "{to} you're barking up the wrong tree.",
        "{to} I have nothing to hide.",
        "{to} I'm village. Think again.",
        "{to} that's not fair. I'm not a wolf.",
        "{to} I get why you'd say that but I'm not a werewolf.",
        "{to} [I'm not|I am not|I am honestly not|I'm really not] [a werewolf|a wolf|the wolf here|your wolf]. "
        "[Look elsewhere|Think again|Check my votes|Look at the others|Try someone else].",
        "{to} [you're wrong about me|you've got me wrong|that's a mistake|that's not right|you have the wrong person]. "
        "[I'm with the village|I'm on the village side|I'm one of the good guys|I'm on your side].",
        "{to} [why me|really|me? Seriously|where is that coming from]? "
        "[I'm with the village|I'm on the village side|I'm not a werewolf|I'm not a wolf].",
    ),
    "question": (
        "{to} whom do you suspect?",
        "{to} who do you think is a wolf?",
        "What is your read {to}?",
        "{to} who are you voting for?",
        "{to} what do you think?",
        "{to} who is your top suspect?",
        "{to} who's your main suspect?",
        "{to} where do you stand?",
        "{to} who would you vote for?",
        "{to} any suspects?",
        "{to} what's your take?",
        "{to} who looks off to you?",
        "I'd like to hear from {to}. Who do you suspect?",
        "{to} you've been quiet. Who do you suspect?",
        "{to} tell us your read.",
        "{to} who worries you most?",
        "What does {to} think?",
        "{to} care to share your suspicions?",
        "{to} which way are you leaning?",
        "{to} [who do you suspect|who do you think is a wolf|who are you voting for"
        "|who is your top suspect|who would you vote for|who worries you most]"
        "[ today| right now| at this point|]?",
        "{to} [I'd like to hear your read|tell us your read|let's hear your take][ please| now|].",
        "[What is your read|What's your take|Where do you stand|Which way are you leaning] {to}?",
    ),
    "summary": (
        "So far {list} claim {role}.",
        "Let me sum up: {list} claim {role}.",
        "Recap: {list} each claim to be the {role}.",
        "{list} have claimed {role}.",
        "Counting claims: {list} say they are the {role}.",
        "To sum up the claims: {list} say they are the {role}.",
        "Where we are: {list} claim {role}.",
        "So we have {list} claiming {role}.",
        "Quick recap: {list} claim {role}.",
        "We now have {list} claiming {role}.",
        "Just so we're clear: {list} claim {role}.",
    ),
    "agree": (
        "I agree with {to} about {t}.",
        "{to} is right about {t}.",
        "{to} has a point about {t}.",
        "I think {to} is right about {t}.",
        "I agree with what {to} said about {t}.",
        "{to} makes a good point about {t}.",
        "Same read as {to} on {t}.",
        "{to} and I agree on {t}.",
        "{to} called it on {t}.",
        "I back what {to} said about {t}.",
        "{to} nailed it about {t}.",
        "[I agree with|I'm on the same page as] {to} [about|on] {t}.",
        "{to} [is right|has a point|makes a good point|has it right] [about|on] {t}.",
        "[Good point|Fair point] from {to} [about|on] {t}.",
        "[I think|I'd say|I feel] {to} [is right|has a point|has it right] [about|on] {t}.",
        "{to} [said it well|put it well|called it right] [about|on] {t}[ I think|].",
        "[Same read as|I share the read of|I see it the same way as] {to} [on|about] {t}.",
    ),
}

_REPLIES = (
    "To answer {to}: ",
    "{to} since you ask: ",
    "In reply to {to}: ",
    "{to} to answer your question: ",
    "{to} here's my answer: ",
    "For {to}: ",
)
"""How an opinion given in answer to a question starts (and `{to} ` before an opinion that starts with "I")."""

_AGAIN = ("Like I said ", "Again: ", "As I said before ", "To repeat: ", "I'll say it again: ", "Once more: ")
"""How a repeated act's sentence starts (the sentence goes on after it, see `_again`; no commas: AIWolf
servers refuse them in talk)."""
_AGAIN_OPINION = ("I still stand by it: ", "Nothing has changed: ", "Same as before: ")
"""More leads for a repeated opinion (a question asked again is not a view one stands by)."""


def _again(lead: str, sentence: str, names: Sequence[str]) -> str:
    """`sentence` led by `lead`: its first letter lowered unless it starts with "I" or a player's name."""
    if sentence.startswith(("I ", "I'")) or any(sentence.startswith(n) for n in names if n):
        return lead + sentence
    return lead + sentence[:1].lower() + sentence[1:]


_OPENERS: dict[str, tuple[str, ...]] = {
    "calm": (
        "Let me think this through.",
        "Okay.",
        "Here is where I stand.",
        "Let's stay calm.",
        "Let's take this step by step.",
        "No need to rush.",
        "Let's look at what we know.",
        "Alright then.",
        "Let's breathe for a second.",
        "Slowly now.",
        "Here's how I see the board.",
        "Let's keep our heads.",
        "A quiet word first.",
        "Let me lay it out.",
        "[Okay|Alright|Right] [let's|let me] [think|take stock|slow down][ a moment| for a second|].",
    ),
    "warm": (
        "Friends.",
        "Thanks everyone.",
        "Hi again all.",
        "Okay my friends.",
        "Thanks for sharing everyone.",
        "Good to hear from you all.",
        "Dear neighbours.",
        "I appreciate everyone talking.",
        "Hello again friends.",
        "Good to see you all still here.",
        "Thank you for the thoughts so far.",
        "I'm glad you're all talking.",
        "Hey you lovely lot.",
        "Okay dear friends.",
        "[Thanks|Thank you] [everyone|all|friends][ for talking| for sharing| so far|].",
    ),
    "blunt": (
        "Straight to the point.",
        "Listen.",
        "Here it is.",
        "No time to waste.",
        "Enough talk.",
        "Let's be direct.",
        "Cards on the table.",
        "Plain and simple.",
        "Short version.",
        "Bottom line.",
        "No fluff.",
        "Here goes.",
        "Let's cut to it.",
        "I'll keep it short.",
        "[No time to waste|Let's be quick|Short and sweet][ now| here|].",
    ),
    "careful": (
        "If I may.",
        "Let me be precise.",
        "Just to be clear.",
        "Carefully now.",
        "Let me put this carefully.",
        "A small point first.",
        "I want to get this right.",
        "Bear with me.",
        "One moment.",
        "To be exact.",
        "Let me check my notes.",
        "Let me walk through it.",
        "Precisely put.",
        "If you'll allow me.",
        "[Let me|Allow me to|I'll try to] [be precise|be clear|put this carefully][ here| now|].",
    ),
    "cheerful": (
        "Alright!",
        "Right then!",
        "Okay team!",
        "Here we go!",
        "Good news everyone!",
        "Oh this is fun!",
        "Let's do this!",
        "Okay okay listen up!",
        "Ooh okay!",
        "Hey hey!",
        "What a game!",
        "Woo alright!",
        "Fun times!",
        "Buckle up!",
        "[Alright|Okay|Right] [team|everyone|folks]!",
    ),
    "wry": (
        "Well well.",
        "Funny thing.",
        "Of course.",
        "Here we go again.",
        "What a day.",
        "How shocking.",
        "Well this is cosy.",
        "Nobody saw this coming.",
        "Oh good.",
        "Well isn't this nice.",
        "Surprise surprise.",
        "Delightful.",
        "Another lovely day.",
        "Oh the drama.",
        "[Well|Oh] [well|good|look at that][ now|].",
    ),
    "earnest": (
        "Honestly.",
        "I mean this.",
        "Seriously everyone.",
        "Please hear me out.",
        "I have to be honest.",
        "This is important.",
        "Please listen.",
        "From the heart.",
        "I really mean it.",
        "Truly.",
        "Hear me out please.",
        "With all sincerity.",
        "I care about this.",
        "Please take this seriously.",
        "[Please|Honestly please] [hear me out|listen|take this seriously][ everyone| friends|].",
    ),
    "nervous": (
        "Um okay.",
        "This is stressful.",
        "Oh boy.",
        "Okay okay.",
        "Sorry I'm a bit nervous.",
        "I hope this is right.",
        "Gosh.",
        "Hmm okay.",
        "Oh no okay.",
        "Uh so.",
        "Sorry sorry.",
        "Yikes.",
        "Deep breath.",
        "Okay um.",
        "[Um|Uh|Oh] [okay|so|boy][ um| okay|].",
    ),
}

_CLOSERS: dict[str, tuple[str, ...]] = {
    "questions": (
        "What do you all think?",
        "Does anyone see it differently?",
        "Anyone disagree?",
        "Thoughts?",
        "Who wants to go next?",
        "Am I missing something?",
        "Does that make sense to you?",
        "What would you do?",
        "Who sees it another way?",
        "Any objections?",
        "Who's with me?",
        "What's your read?",
        "Anyone want to push back?",
        "Convince me otherwise.",
        "[What do you all think|Does anyone see it differently|Anyone want to weigh in|Who disagrees]"
        "[ here| on this|]?",
    ),
    "plans": (
        "Let's not split the vote.",
        "If we all vote together we can do this.",
        "Let's settle it at the vote.",
        "Let's vote as one today.",
        "A split vote only helps the other side.",
        "We need one target today.",
        "Let's agree on one name before the vote.",
        "Let's keep our votes together.",
        "Let's line up our votes.",
        "One name and we stick to it.",
        "Don't scatter the votes.",
        "Let's close this out together.",
        "Let's make the vote count.",
        "No lone votes today please.",
        "[Let's|We should|We need to] [keep|line up|put] our votes [together|on one name|in one place]"
        "[ today| this time|].",
    ),
    "summaries": (
        "That's my read.",
        "So that's where I am.",
        "That is all I have for now.",
        "That sums it up for me.",
        "That's the short version.",
        "Those are the facts as I see them.",
        "So there you have it.",
        "That's everything from me.",
        "That's where I land.",
        "Nothing more from me.",
        "End of story for now.",
        "That's my whole case.",
        "I'll leave it there.",
        "Over to you.",
        "[That's|That is|So that's] [my read|where I stand|my take|my view|all from me][ for now| today|].",
    ),
    "hedges": (
        "I could be wrong.",
        "I'm not completely sure though.",
        "Happy to be proven wrong.",
        "Just my guess.",
        "Take it with a grain of salt.",
        "I might change my mind.",
        "That's my best guess anyway.",
        "Tell me if I'm off.",
        "I'm open to other views.",
        "Could be wrong of course.",
        "Just a hunch really.",
        "Convince me if I'm wrong.",
        "I'll listen if you disagree.",
        "Not set in stone.",
        "[I could be|I might be|Maybe I'm] [wrong|off|mistaken][ about this| here|][ though|].",
    ),
    "emphasis": (
        "This matters.",
        "Please remember that.",
        "Mark my words.",
        "Don't forget that.",
        "I can't stress this enough.",
        "Remember this later.",
        "This is the key point.",
        "Think hard about that.",
        "Keep it in mind at the vote.",
        "Don't let this slide.",
        "It's important.",
        "Write that down.",
        "Remember who said it.",
        "We can't ignore it.",
        "[Remember|Don't forget|Keep in mind] [that|this|what I said][ at the vote| later|].",
    ),
    "names": (
        "Think about it.",
        "Take note.",
        "Keep that in mind.",
        "You heard it.",
        "Just saying.",
        "Watch closely.",
        "Let that sink in.",
        "We'll see.",
        "Food for thought.",
        "Something to chew on.",
        "Keep watching.",
        "Eyes open.",
        "Make of that what you will.",
        "Time will tell.",
        "[Think about|Chew on|Sit with] [that|it][ for a bit| a moment| before the vote|].",
    ),
}

_ASIDES: dict[str, tuple[str, ...]] = {
    "calm": (
        "We have time to get this right.",
        "Let's look at the facts.",
        "Panic won't help us.",
        "One thing at a time.",
        "Slow and steady.",
        "We'll figure it out.",
        "No need to shout.",
        "[We have|There's] [time|no rush][ to get this right| to think| today|].",
    ),
    "warm": (
        "I want us all to get through this.",
        "I'm glad we're talking.",
        "We're in this together.",
        "No hard feelings to anyone.",
        "You're all doing great.",
        "Thanks for hearing me out.",
        "I like this group.",
        "[I'm glad|It's good|I'm happy] [we're talking|we're all here|to hear everyone][ today| again|].",
    ),
    "blunt": (
        "I won't sugar-coat it.",
        "That's how I see it.",
        "No excuses.",
        "Facts are facts.",
        "Simple as that.",
        "Deal with it.",
        "I call it like I see it.",
        "[That's|That is] [how I see it|the truth|all there is to it][ plain and simple|].",
    ),
    "careful": (
        "I've gone over it twice.",
        "I don't say this lightly.",
        "I checked the votes again.",
        "Details matter.",
        "I counted twice.",
        "Every word matters here.",
        "I wrote it all down.",
        "[I've|I have] [gone over|looked at|thought about] [it|this|everything] [twice|carefully|again].",
    ),
    "cheerful": (
        "We can do this!",
        "Let's keep it moving!",
        "I'm feeling lucky today!",
        "We've got this!",
        "This is exciting!",
        "Love the energy!",
        "So much fun!",
        "[We've got this|We can do this|This is fun][ everyone| team|]!",
    ),
    "wry": (
        "Not that anyone asked.",
        "What a surprise.",
        "Imagine that.",
        "Color me shocked.",
        "Shocking I know.",
        "Who could have guessed.",
        "Truly riveting stuff.",
        "[What a surprise|Imagine that|Shocking I know|Who could have guessed][ really| honestly|].",
    ),
    "earnest": (
        "I really want us to win this.",
        "This is important to me.",
        "I'm trying my best here.",
        "We owe it to each other.",
        "I'm being sincere.",
        "I just want us to win.",
        "This matters to all of us.",
        "[I really|I truly|I just] want [us|our side] to win[ this| today|].",
    ),
    "nervous": (
        "I hope I'm making sense.",
        "Sorry if this sounds rushed.",
        "My hands are shaking.",
        "Please don't vote me.",
        "I'm sweating here.",
        "Please go easy on me.",
        "I hate this part.",
        "[Sorry|Apologies] if [this sounds rushed|I'm not making sense|I ramble][ today| a bit|].",
    ),
}

_MARKERS: tuple[str, ...] = (
    "Honestly",
    "Frankly",
    "To be fair",
    "If you ask me",
    "For what it's worth",
    "At this point",
    "Right now",
    "Personally",
    "In my view",
    "From where I sit",
    "As far as I can tell",
    "The way I see it",
    "All things considered",
    "For now",
    "Having thought about it",
    "After all that",
    "Truth be told",
    "On reflection",
    "Look",
    "Anyway",
    "Between you and me",
    "After some thought",
    "Plainly put",
    "All in all",
)
"""Discourse markers that may lead a sentence (`Honestly I will vote for ...`)."""
_TIME_MARKERS = frozenset({"At this point", "Right now", "For now"})
"""Markers that say when: not put before a sentence that already does ("... for now", "... yet")."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One wording of an utterance: its text and where it came from (`grammar`, `model`, `template`)."""

    text: str
    source: str


_CHOICE = re.compile(r"\[([^\[\]]*)\]")
"""A choice in a frame: `[for|against]` says one of its options, `[ today|]` may say nothing."""


def _expand(frame: str, rng: random.Random) -> str:
    """`frame` with each `[a|b|...]` choice made at random (a frame's realisations multiply)."""
    return " ".join(_CHOICE.sub(lambda m: rng.choice(m.group(1).split("|")), frame).split())


def expansions(frame: str) -> list[str]:
    """Every text `frame`'s choices can make, in order (for tests that check each one)."""
    parts = _CHOICE.split(frame)  # literal, options, literal, options, ..., literal
    options = [p.split("|") if i % 2 else [p] for i, p in enumerate(parts)]
    return [" ".join("".join(pick).split()) for pick in itertools.product(*options)]


_AFTER_A_VOTE = re.compile(r"\b(?:check|checked|counted) (?:my|the) votes\b|\bcounted twice\b", re.IGNORECASE)
"""Words that speak of votes already cast: not said before the first vote (day 1 and earlier)."""


def _said_in_time(text: str, day: int) -> bool:
    """Whether `text` may be said on `day` (nothing about past votes before anyone has voted)."""
    return day >= 2 or not _AFTER_A_VOTE.search(text)


def _res(species: Species | None) -> str:
    return "a werewolf" if species is Species.WEREWOLF else "human"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(act: SpeechAct, names: Sequence[str], day: int, rng: random.Random, used: set[str]) -> str:
    """One realisation of `act` (its reasons kept word for word), in a frame not in `used` where one is left."""
    kind = act.kind
    frames = _FRAMES.get(kind, ())
    if kind == "suspect" and not act.reasons:
        frames = _FRAMES["suspect_bare"]
    if not frames:
        return act.template(tuple(names), day)
    night = act.night if act.night >= 0 else day - 1
    when = "last night" if night == day - 1 else f"on night {night}"
    why = " and ".join(rng.choice((r.text, *r.others)) for r in act.reasons)
    slots = {
        "t": names[act.target] if act.target is not None else "",
        "to": names[act.to] if act.to is not None else "",
        "role": act.role or "seer",
        "res": _res(act.species),
        "when": when,
        "When": _cap(when),
        "when_short": "last night" if night == day - 1 else f"night {night}",
        "why": why,
        "list": " and ".join(names[s] for s in act.seats),
        "Why": _cap(why),
    }
    fresh = [f for f in frames if f not in used] or list(frames)
    frame = rng.choice([f for f in fresh if _said_in_time(f, day)] or fresh)  # no past votes before a vote
    used.add(frame)
    text = _expand(frame, rng)
    for _ in range(8):  # a choice inside the frame may speak of past votes: choose again
        if _said_in_time(text, day):
            break
        text = _expand(frame, rng)
    text = text.format(**slots)
    if kind == "greet":
        text = f"{text} {_expand(rng.choice(_FRAMES['greet_more']), rng)}"
    text = _cap(text)
    if kind in OPINIONS and text.startswith(("I ", "I'", "My ")) and rng.random() < 0.35:
        timed = re.search(
            r"\b(?:for now|yet|so far|at this point|right now|at the moment|currently|today)\b", text, re.IGNORECASE
        )
        markers = [m for m in _MARKERS if not (timed and m in _TIME_MARKERS)]  # not "Right now ... for now"
        text = f"{rng.choice(markers)} {text[:1].lower() + text[1:] if text.startswith('My') else text}"
    if act.to is not None and kind in OPINIONS:
        leads = (*_REPLIES, "{to} ") if text.startswith(("I ", "I'")) else _REPLIES
        text = _again(rng.choice(leads).format(to=slots["to"]), text, names)
    return text


_CLOSES: dict[str, frozenset[str]] = {
    "questions": frozenset({"suspect", "vote", "trust", "liar", "agree", "summary", "divined", "medium"}),
    "plans": frozenset({"vote", "agree"}),
    "summaries": frozenset({"suspect", "vote", "trust", "liar", "agree", "nothing"}),
    "hedges": frozenset({"suspect", "vote", "trust", "agree"}),
    "emphasis": frozenset({"claim", "divined", "medium", "protected", "liar", "suspect", "vote", "summary"}),
    "names": frozenset({"suspect", "liar", "divined", "medium", "summary", "trust"}),
}
"""The acts after which a habit's closing line makes sense: a plan for the vote follows a vote, a
hedge an opinion (never a result, a claim or a denial: "I'm not a werewolf. Not set in stone."),
emphasis a statement (never a question or a greeting)."""


def _closes(habit: str, acts: Sequence[SpeechAct]) -> bool:
    """Whether a closing line of `habit` fits after `acts` (the last act that is not a question decides)."""
    told = [a for a in acts if a.kind != "question"]
    if habit == "questions" and len(told) < len(acts):
        return False  # one question a turn
    return bool(told) and told[-1].kind in _CLOSES.get(habit, frozenset())


def realise(
    acts: Sequence[SpeechAct],
    *,
    names: Sequence[str],
    persona: Persona,
    day: int,
    rng: random.Random,
    count: int = CANDIDATES,
    limit: int = 0,
) -> list[str]:
    """Up to `count` distinct wordings of `acts`, in the manner of `persona` (unchecked; see `check_wording`).

    Each candidate words every act in order; a persona's verbosity decides how much is said around
    them: `terse` nothing, `plain` sometimes an opener or a habit's closing line, `chatty` both and
    an aside. A repeated act (`again`) is announced as such. With a `limit` (characters, spaces not
    counted), a candidate longer than it loses what is said around the acts, and is left out if
    its acts alone are still too long.
    """
    if not acts:
        return []
    out: dict[str, None] = {}
    chatty = persona.verbosity == "chatty"
    plain = persona.verbosity == "plain"
    for _ in range(count * 3):
        parts: list[str] = []
        opener = chatty or (plain and rng.random() < 0.5)
        whisper = any(a.kind in ("attack", "plan") for a in acts)
        if opener and not whisper and acts[0].kind != "greet":
            parts.append(_expand(rng.choice(_OPENERS[persona.temperament]), rng))
        used: set[str] = set()
        flagged = rng.random() < 0.8
        said: list[str] = []
        for a in acts:
            sentence = _sentence(a, names, day, rng, used)
            if a.again and flagged and not (a.to is not None and a.kind in OPINIONS):  # a reply has its lead
                leads = (*_AGAIN, *_AGAIN_OPINION) if a.kind in OPINIONS else _AGAIN
                sentence = _again(rng.choice(leads), sentence, names)
                flagged = False
            said.append(sentence)
        after: list[str] = []
        if chatty and not whisper and rng.random() < 0.6:
            after.append(_expand(rng.choice([a for a in _ASIDES[persona.temperament] if _said_in_time(a, day)]), rng))
        habits = [h for h in persona.habits if h in _CLOSERS and _closes(h, acts)]
        if habits and not whisper and (chatty or (plain and rng.random() < 0.5)):
            after.append(_expand(rng.choice(_CLOSERS[rng.choice(habits)]), rng))
        if after and acts[-1].kind == "question":  # a question ends the turn: the other player answers next
            parts += [*said[:-1], *after, said[-1]]
        else:
            parts += [*said, *after]
        text = " ".join(parts)
        if limit > 0 and spoken_length(text) > limit:
            text = " ".join(said)  # the acts matter; what is said around them does not
            if spoken_length(text) > limit:
                continue
        out.setdefault(text, None)
        if len(out) >= count:
            break
    return list(out)


def check_wording(
    text: str,
    template: str,
    *,
    names: tuple[str, ...],
    seat: int,
    wolf_public: bool,
    limit: int = 0,
) -> str:
    """Why `text` may not be spoken for the acts whose template words are `template` ("" when it may).

    The facts must be the template's: the talk reader reads the same statements from both; the
    names of the template and no other (the names a reason cites are part of the act), no role word
    the template lacks; within the talk
    limit; none of the voice faults (`wolf_public`: a werewolf-side seat in public talk).
    """
    if limit > 0 and spoken_length(text) > limit:
        return "too long"
    fault = voice_fault(text, names[seat], "", wolf_public=wolf_public)
    if fault:
        return fault
    reader = reader_for(names)
    if set(reader.parse(text, seat)) != set(reader.parse(template, seat)):
        return "contradicts the act"
    if names_in(text, names) != names_in(template, names):
        return "other names"
    if not role_words(text) <= role_words(template):
        return "other roles"
    return ""


def _pairs(text: str) -> set[tuple[str, str]]:
    w = words(text)
    return set(itertools.pairwise(w))


def _sentences(text: str) -> list[str]:
    out, start = [], 0
    for i, ch in enumerate(text):
        if ch in ".!?":
            piece = text[start : i + 1].strip()
            if piece:
                out.append(piece.lower())
            start = i + 1
    rest = text[start:].strip()
    if rest:
        out.append(rest.lower())
    return out


class Heard:
    """What was already said at a table: its sentences and word pairs, to keep new talk unlike it."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self.sentences: set[str] = set()
        self.pairs: set[tuple[str, str]] = set()
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        """Remember `text` as said."""
        self.sentences.update(s for s in _sentences(text) if len(words(s)) >= 3)
        self.pairs |= _pairs(text)

    def staleness(self, text: str) -> tuple[int, float]:
        """How much of `text` was heard: (its sentences said before, the share of its word pairs heard)."""
        repeated = sum(1 for s in _sentences(text) if s in self.sentences)
        pairs = _pairs(text)
        return repeated, (len(pairs & self.pairs) / len(pairs) if pairs else 1.0)


def choose(candidates: Sequence[str], heard: Heard, rng: random.Random) -> str | None:
    """The candidate least like what was `heard` (fewest sentences said before, then fewest word pairs heard)."""
    if not candidates:
        return None
    keyed = [(heard.staleness(c), rng.random(), c) for c in candidates]
    return min(keyed)[2]


__all__ = ["CANDIDATES", "Candidate", "Heard", "check_wording", "choose", "expansions", "realise"]
