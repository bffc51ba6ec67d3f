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

A frame multiplies its wordings with `[a|b]` choices and with list slots (`_LISTS`: `{deny}`,
`{ask}`, `{vote}`, `{doubt}` ... one wording of a list of whole phrases, each read back as the act
alone), a result may be said in several words (`_RESULTS`: "human", "innocent", "clean") and last
night in several ways ("overnight"); a temperament adds frames of its own (`_TEMPERED`). Across
games, what limits variety is how many wordings each frequent act has: `choose` keeps a game's
talk fresh, but every game starts from the same grammar.

Reasons are spoken in one of the wordings `lycan.render.explanations` gives for the event they cite
("they voted against me", "they cast a vote against me"), so a listener, and `lycan.eval.speech`,
can check them against the record.
No realisation uses an ASCII comma, which AIWolf NLP servers reject in utterances.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lycan.agents.persona import Persona
from lycan.agents.phrasing import names_in, role_words, voice_fault, words
from lycan.agents.speech import OPINIONS, Reason, SpeechAct
from lycan.beliefs.reader import reader_for
from lycan.engine.events import Died, PeacefulNight, Talk
from lycan.engine.view import View
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
        "[Good morning|Morning|Hello|Hi|Hey|Good day] [everyone|all|folks|friends|everybody|neighbours|team|table].",
        "Nice to meet you all.",
        "Pleased to meet you everyone.",
        "Well met everyone.",
        "Good to see you all.",
        "A good morning to everyone.",
        "[Hello|Hi|Hey] there [everyone|all|folks|friends].",
        "Morning morning.",
        "[Good morning|Hello|Hi] [all you lovely people|everyone at the table|to one and all].",
        "[Hey|Hello] [everybody|all]. Here we go.",
        "Greetings [everyone|friends|folks].",
        "Morning [everyone|all]. [I'm|I am] here.",
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
        "Good luck to everyone.",
        "[Good luck|Best of luck] [to all of us|everybody|to the village].",
        "The wolves are [among us|listening|hiding in plain sight|already plotting].",
        "Let's [talk it through|work it out|figure this out] [together|as a group|step by step|calmly].",
        "[Let's|We should] [hear everyone out|give everyone a fair hearing] [first|before we vote|today].",
        "[Watch|Listen to] [every word|what people say|who goes quiet|who pushes hardest] [today|closely|from the "
        "start].",
        "[I'm|I am] [looking forward to|excited for|a little nervous about] [this one|today|the talk].",
        "Let's stay [calm|focused|sharp|alert] and [think|talk] it through.",
        "Somebody at this table is hiding something.",
        "Every word counts today.",
        "Let's make every vote count.",
        "I'll be paying attention to everyone.",
        "Let's not make it easy for the wolves.",
        "Time to sniff out the wolves.",
        "I can't wait to hear what you all think.",
        "Talk to me people.",
        "[Speak|Talk] [freely|plainly|openly] [today|everyone|please].",
        "Let's have a good clean game.",
        "[Let's|We should] [look out|watch out] for each other.",
        "[Remember|Don't forget] the wolves [talk|lie] too.",
        "[May|Let] the truth come out [today|soon].",
        "[I|We] [need|want] [honest|open] talk from everyone.",
        "[Trust|Watch] [actions|votes] more than words.",
        "[Let's|We'll] [get|catch] them before they get us.",
        "[Quiet|Loud] players [worry|bother] me [the most|a lot].",
        "[I|We] [have|got] a [wolf|werewolf] problem to solve.",
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
        "[I'm|I am] [your|this village's|the real|the true] {role}.",
        "[No more hiding|Enough hiding|Time to be open|Here's the truth|Full disclosure]. [I'm|I am] the {role}.",
        "The {role} is me.",
        "I'm coming out as the {role}.",
        "I'm claiming {role}.",
        "I claim {role}.",
        "It's time you knew. I'm the {role}.",
        "Let me be clear: I am the {role}.",
        "[Listen|Hear me|Listen up]. I am the {role}.",
        "I [have to|need to|want to] come out as the {role}.",
        "[Yes|Yeah] I'm the {role}.",
        "I'm the real {role} here.",
        "I'm the {role}. No joke.",
        "I'm the {role} and I'll prove it.",
        "[Okay|Alright|Fine] [I'll|let me] say it. I'm the {role}.",
        "I can't hide it any longer. I'm the {role}.",
        "I'm the {role} [in this village|at this table|in this game].",
        "[Listen everyone|Everyone listen]. I am the {role}.",
        "[Truth is|The truth is|Fact is] I'm the {role}.",
        "[For the record|Officially|Openly] I am the {role}.",
        "[I|Let me] [reveal|announce] that I am the {role}.",
        "I [really|genuinely|truly] am the {role}.",
        "I'm the {role} [and I mean it|no question|for real].",
        "Hear me out: I am the {role}.",
        "{role} here.",
        "I'm the village's {role}.",
        "As [the|your] {role} I [will speak plainly|have to speak up|must speak now].",
        "I'm claiming the {role} role.",
    ),
    "divined": (
        "{When} I divined {t}: {res}.",
        "{When} I divined {t} and {t} is {res}.",
        "I divined {t} {when} and {t} is {res}.",
        "My divination {when} says {t} is {res}.",
        "{When} I divined {t} and the result was {res}.",
        "{When} my divination showed {t} is {res}.",
        "Here is my result: {when} I divined {t} and {t} is {res}.",
        "[I checked|I looked at|I divined|I looked into] {t} {when} and {t} [is|came back|came up] {res}.",
        "{When} I [checked|looked at|divined|looked into] {t} and {t} [came back|came up] {res}.",
        "My [result|check|divination] from {when_short} says {t} is {res}.",
        "{When} my [vision|check|divination] [showed|told me] {t} is {res}.",
        "{When} I saw that {t} is {res}.",
        "I used my vision on {t} {when} and {t} is {res}.",
        "I divined {t} {when} and I can [confirm|tell you] {t} is {res}.",
        "[Fresh result|New result|My result]: I divined {t} {when} and {t} is {res}.",
        "[My|The] [divination|check|vision] on {t} {when} [showed|came back] {res}.",
        "{When} I [chose|picked] {t} to divine and {t} [is|came back] {res}.",
        "I [took a look at|had a look at] {t} {when} and {t} is {res}.",
        "My [vision|check] {when} [was on|fell on] {t} and {t} is {res}.",
        "{When} I turned my vision to {t} and [found|saw|learned] that {t} is {res}.",
        "[Big news|Important news|Listen up]. I divined {t} {when} and {t} [is|came back] {res}.",
        "{t} [came back|came up|showed up as] {res} [in|on] my [check|vision|divination] {when}.",
        "{t} is {res} according to my [check|vision|divination] {when}.",
        "I divined {t} {when} and [the result is|it came back|it showed] {res}.",
        "[After|From] my [divination|vision] {when} I [know|can say] {t} is {res}.",
        "I {saw} {t} {when} and {t} [is|came back|came up] {res}.",
        "{When} I {saw} {t} and {t} [came back|came up|is] {res}.",
        "[Big news|Important news|Listen up|Result time|Here's my result]. "
        "I {saw} {t} {when} and {t} [is|came back] {res}.",
    ),
    "medium": (
        "{t} who was executed was {res}.",
        "My reading says {t} was {res}.",
        "My reading says {t} who was executed was {res}.",
        "{t} who we executed was {res}.",
        "{t} who we [executed|voted out] [was|turned out to be] {res}.",
        "My reading [says|shows] {t} who we executed was {res}.",
        "{t} who was [executed|voted out] turned out to be {res}.",
    ),
    "protected": (
        "Last night I protected {t}.",
        "I guarded {t} last night.",
        "Last night I kept {t} safe.",
        "I protected {t} last night.",
        "[Last night|Overnight] I [protected|guarded|shielded] {t}.",
        "I had {t} covered last night.",
        "My shield [was on|went to] {t} last night.",
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
        "[I'm|I am] [putting|placing|throwing|laying] my vote on {t}[ today| this round|].",
        "[Today|This round|This time] my vote [goes to|lands on|is on] {t}.",
        "{t} is [my pick|where my vote goes|getting my vote][ today| this round|].",
        "{t} [needs to go|has to go|should go|must go][ today| this round|].",
        "[I'm|I am] going with {t}[ today| for the vote|].",
        "Vote {t} with me[ today| everyone|].",
        "Join me on {t}[ today| everyone|].",
        "I'll be [casting|putting|placing] my vote [on|against] {t}[ today|].",
        "[When the time comes|Come the vote|At the ballot] {t} [gets|has|will get] my vote.",
        "My [ballot|vote] [is going to|goes to] {t}[ today| this time|].",
        "[No doubt about it|Easy call|Simple choice]. My vote goes to {t}.",
        "I'm on {t} today.",
        "I'm going to [execute|vote out] {t}[ today|].",
        "My vote is [cast|set|locked] [for|on] {t}[ today|].",
        "[Today|This round] I'm [backing|supporting] a vote on {t}.",
        "{t} is the one I'm voting [for|out] today.",
        "My [choice|pick] for the vote is {t}.",
        "I've decided. My vote goes to {t}.",
        "[I'm|I am] [throwing|putting] my [weight|support] behind a vote on {t}.",
        "Let's [vote out|execute] {t}[ today| together| this round|].",
        "[We need to|We must|We have to] [vote out|execute] {t}[ today|].",
        "My [mind|decision] is made. I'm voting [for|against] {t}.",
        "{Vote}[ today| this round|].",
        "[So|Then|In the end|All told|Bottom line] {vote}.",
        "[Simple choice|Easy call|No question about it|Decision made]. {Vote}.",
        "{Vote}. [That's final|My mind is made up|Simple as that].",
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
        "[I've got|I have] a [bad|strange] feeling about {t} [because|since] {why}.",
        "{t} [looks|seems|feels] [wolfy|wolfish|like a wolf] to me [because|since] {why}.",
        "[I'm pointing at|I point at] {t} [because|since] {why}.",
        "[Call me paranoid but|Maybe it's just me but] I suspect {t} [because|since] {why}.",
        "{t} is [the likeliest wolf|my best guess for a wolf|a likely wolf] [because|since] {why}.",
        "[For me|To me] {t} is the most suspicious player [because|since] {why}.",
        "{t} [has been acting|is acting] [shady|suspicious|wolfy][ today|]. {Why}.",
        "I smell a wolf in {t} [because|since] {why}.",
        "{t} [gives me|is giving me] wolf vibes [because|since] {why}.",
        "{Doubt} {because} {why}.",
        "{Doubt}. {Why}.",
        "[Honestly|Frankly|Simply put] {doubt} {because} {why}.",
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
        "[I've got|I have] a [bad|strange] feeling about {t}[ today| right now|].",
        "{t} [looks|seems|feels] [wolfy|wolfish|like a wolf] to me[ today| right now|].",
        "[I'm pointing at|I point at] {t}[ today| for now|].",
        "{t} [has been acting|is acting] [shady|suspicious|wolfy][ today| to me|].",
        "{Doubt}[ today| right now| for now|].",
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
        "[I'd vouch for|I vouch for|I'll vouch for] {t}[ for now| today|].",
        "[I'm|I am] [fairly|pretty|quite] sure {t} is [honest|genuine|telling the truth].",
        "[I'm|I am] [willing|happy] to [believe|trust] {t}[ for now| today|].",
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
        "[Don't be fooled|Don't fall for it|Don't buy it]. {t} is [a fake|not the real|no real] {role}.",
        "{t} is lying about the {role} claim.",
        "{t}'s {role} claim is [fake|false|a lie|bogus].",
        "The {role} claim from {t} is [fake|a lie].",
        "{t} is not the {role}. They're lying.",
        "{t} is [an impostor|a fraud] posing as the {role}.",
        "{t} [lied|was lying] when they claimed {role}.",
        "{t} is a liar. They're no {role}.",
        "{t} is lying. [They're|They are] not the {role}.",
        "[I'm sure|I'm certain|I know] {t} is lying about being the {role}.",
        "{t} [cannot|can't] be the real {role}.",
        "{t}'s {role} claim is a bluff.",
        "{t} is lying. [The|That] {role} claim is [fake|a lie].",
        "{t} is [definitely|clearly|obviously] [not the real|a fake|no] {role}.",
        "{Fake}.",
        "[Don't be fooled|Don't fall for it|Don't buy it|Wake up everyone]. {Fake}.",
        "{Fake}. [I'm sure of it|I'd bet on it|Mark my words].",
        "[I'm sure|I'm certain|Make no mistake] {fake}.",
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
        "I'm [still|] [undecided|thinking it over|listening|on the fence|weighing it up] "
        "[for now|so far|at the moment].",
        "[I want to|I'd like to|I need to] hear [more|a bit more|from everyone] before I "
        "[accuse anyone|point at anyone|pick a name|decide].",
        "[Too early|Still too early|Way too early] for me to [point at anyone|name anyone|pick a suspect|call it].",
        "I [can't|couldn't] [pick|name|point to] anyone [yet|so far|right now].",
        "[Everyone|Everybody] [looks|seems|sounds] about the same to me [so far|for now|at the moment].",
        "My [gut|instinct] [hasn't settled|isn't telling me much] [yet|so far].",
        "I'm [reserving judgment|holding off|keeping my options open] [for now|until I hear more|a little longer].",
        "It's [still|] [anyone's game|wide open] [as far as I can tell|for me|right now].",
        "[Nobody|No one] has [given themselves away|slipped up|tipped their hand] [yet|so far].",
        "I [don't|do not] [see|have] [anything solid|a clear lead|a real lead] [yet|so far|right now].",
        "[I'm waiting|I'll wait] for [someone|somebody] to [slip up|give themselves away] [first|before I decide].",
        "[Honestly|Truly] I have no idea who it is [yet|so far].",
        "[The picture is|It's all] [still|] too [murky|blurry] for me.",
        "[Let's|I'd rather] [hear|listen to] everyone before [naming names|anyone gets blamed].",
        "[I'm|I am] [torn|split] [between a few people|on everyone] [right now|for now|so far].",
        "I [haven't|have not] [made up my mind|settled on anyone|picked a side] [yet|so far].",
        "[Give it|Let's give it] [time|a round or two]. I [can't|don't] read anyone yet.",
        "I [need|want] [more talk|more to go on] before I [judge|say anything].",
        "[Right now|For now] I'm [just|] [watching|listening|taking notes].",
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
        "{to} that's a mistake. {Deny}.",
        "{to} why me? I am not a werewolf.",
        "{to} I'm not the wolf here.",
        "{to} you've got me wrong.",
        "{to} I promise I'm not a werewolf.",
        "{to} check my votes. {Deny}.",
        "{to} it's not me. I'm on your side.",
        "{to} I'm one of the good guys.",
        "{to} you're barking up the wrong tree.",
        "{to} I have nothing to hide.",
        "{to} I'm village. Think again.",
        "{to} that's not fair. {Deny}.",
        "{to} I get why you'd say that but {deny}.",
        "{to} [I'm not|I am not|I am honestly not|I'm really not] [a werewolf|a wolf|the wolf here|your wolf]. "
        "[Look elsewhere|Think again|Check my votes|Look at the others|Try someone else].",
        "{to} [you're wrong about me|you've got me wrong|that's a mistake|that's not right"
        "|you have the wrong person]. {Deny}.",
        "{to} [why me|why would you say that|are you serious|where is that coming from]? {Deny}.",
        "{to} you have the wrong target. {Deny}.",
        "{to} [I swear|I promise|honestly] I'm not [a werewolf|a wolf|the wolf you want].",
        "{to} you're looking at the wrong [person|player|one].",
        "{to} [that's|this is] [a bad read|way off|a big mistake|not right]. {Deny}.",
        "{to} [hold on|wait a moment|come on]. {Deny}.",
        "{to} [I hear you|I see why you'd think that|I get the worry] but {deny}.",
        "{to} [look at|go back over] what I've said. {Deny}.",
        "{to} you're chasing the wrong [person|player]. {Deny}.",
        "{to} [please|] [look at someone else|point that somewhere else].",
        "{to} I've [done nothing wolfish|said nothing a wolf would say]. {Deny}.",
        "{to} you're [mistaken|way off] about me. {Deny}.",
        "{to} [I'm|I am] no wolf. [Ask anyone|Watch how I vote|You'll see].",
        "{to} I'm on the same side as you. [Honestly|Truly|Really].",
        "{to} you [need to|should] look elsewhere. {Deny}.",
        "{to} [why me of all people|what makes you think that|how did you get there]? {Deny}.",
        "{to} I would never [betray|sell out] the village.",
        "{to} my conscience is clear. [Look at someone else|Try again|Think it over].",
        "{to} you've [misjudged|misread] me [badly|completely|here].",
        "{to} [I'm|I am] [firmly|squarely|completely] on the village side.",
        "{to} there's nothing to find here. {Deny}.",
        "{to} I [know|understand] how it looks but {deny}.",
        "{to} you can count on me. {Deny}.",
        "{to} I [get|see] your point but you're wrong about me.",
        "{to} keep digging. You won't find a wolf [in me|here].",
        "{to} [I'm|I am] [genuinely|truly|honestly] [not a wolf|on your side].",
        "{to} that [accusation|suspicion] doesn't hold up. {Deny}.",
        "{to} I've been [honest|straight|open] [all along|from the start]. {Deny}.",
        "{to} [going after|pointing at] me [helps nobody|won't help us|wastes our time]. {Deny}.",
        "{to} I have nothing to [be ashamed of|apologise for]. {Deny}.",
        "{to} I'll [say it|repeat it] as often as I need to. {Deny}.",
        "{to} think about what I've said. Does that sound like a wolf?",
        "{to} [with respect|respectfully] you're wrong. {Deny}.",
        "{to} I [understand|get] you're [worried|careful] but {deny}.",
        "{to} [let's|we can] [talk it through|go over it]. {Deny}.",
        "{to} it's [an honest|a fair] mistake but {deny}.",
        "{to} if I were a wolf would I [be this open|speak up like this]?",
        "{to} feel free to [watch how I vote|check my votes]. {Deny}.",
        "{to} [I'm telling you|hear me out|listen to me]. {Deny}.",
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
        "{to} [who's on your list|who's at the top of your list|who are you watching|who do you have your eye "
        "on|who do you doubt most|who feels off to you][ today| right now| at this point|]?",
        "{to} [what's your read|what are you thinking|what's on your mind|how do you see it][ today| right now| so "
        "far|]?",
        "[Let's hear from|I want to hear from|Over to] {to}. [Who do you suspect|Who's your pick|What's your read]?",
        "{to} [give us|share] your [read|thoughts][ please| now|].",
        "{to} [you haven't said much|we haven't heard from you|you've been quiet]. [Who do you suspect|What's your "
        "read]?",
        "[Quick question for|A question for|A question to] {to}. Who [do you suspect|looks off to you|worries you]?",
        "{to} if you had to pick one who would it be?",
        "{to} do you have any suspects[ yet| so far|]?",
        "{to} who would you put up today?",
        "{to} I'm curious. Who do you [suspect|doubt|have your eye on]?",
        "How about you {to}? Who do you suspect?",
        "And you {to}? [What's your read|Who's your pick|Who do you doubt]?",
        "{to} [which|what] [player|name] [stands out|jumps out] to you[ today| so far|]?",
        # not "whose claim worries you": a question is asked on days no one has claimed a role
        "{to} whose story [bothers|worries|troubles] you [most|the most]?",
        "[What about|How about] {to}? [Any reads|Any names|Anyone you doubt]?",
        "{to} [you must|surely you] have [a read|a suspect|an opinion] by now?",
        "{to} [don't hold back|speak up|be straight with us]. Who do you suspect?",
        "{to} [let's hear it|out with it]. Who's the wolf?",
        "{to} has anyone [caught your eye|seemed off to you][ today| so far|]?",
        "{to} who's [giving you bad vibes|setting off alarm bells for you][ today| right now|]?",
        "{to} I'd like to know who you suspect.",
        "{to} what do you make of [the table|everyone|today's talk] so far?",
        "{to} [name|give me] [one|a] [name|suspect] please.",
        "{to} [I'm asking you|I'll ask you] [directly|straight]. Who do you suspect?",
        "{to} you haven't named anyone yet. Who [is it|would it be]?",
        "{to} who has you worried [today|so far]?",
        "{to} {ask}?",
        "{to} I'm curious. {Ask}?",
        "{to} you've been quiet today. {Ask}?",
        "[Quick question for|A question for|A question to] {to}. {Ask}?",
        "{to} [don't hold back|speak up|be straight with us]. {Ask}?",
        "[How about|And] you {to}? {Ask}?",
        "[Let's hear from|I want to hear from|Over to] {to}. {Ask}?",
        "{to} [I'm asking you|I'll ask you] [directly|straight]. {Ask}?",
        "{to} tell me this. {Ask}?",
        "{to} your turn. {Ask}?",
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
        "[For the record|To be clear|Let's be clear]: {list} [claim|have claimed|are claiming] {role}.",
        "[Remember|Note|Keep in mind] that {list} [claim|are claiming|have claimed] {role}.",
        "{list} [say they are|claim to be] the {role}.",
        "We have {role} claims from {list}.",
        "The {role} claims so far come from {list}.",
        "[So|Okay so|Right so] {list} are claiming {role}.",
        "Let's not forget that {list} claim {role}.",
        "[Looking at the claims|On the claims]: {list} say they are the {role}.",
        "[Here's|This is] where the claims stand: {list} [say they are|claim to be] the {role}.",
        "[As it stands|Right now] {list} [claim|are claiming] {role}.",
        "[The|Our] {role} [claimants|candidates] are {list}.",
        "[We've got|We have] [competing|rival] {role} claims from {list}.",
        "[Don't forget|Just remember] {list} claim {role}.",
        "{list} [stepped up|came forward] as the {role}.",
        "[So|Okay|Alright] [the|our] {role} claims come from {list}.",
        "[Just to recap|Recapping|To recap]: {list} [have claimed|are claiming|claim] {role}.",
        "{list} each [claimed|claim] {role}.",
        "[At the moment|As of now|So far today] the {role} claimants are {list}.",
        "[We've heard|There are] {role} claims from {list}.",
        "{role} claims [on the table|so far]: {list}.",
        "The {role} [role|spot] is claimed by {list}.",
        "[Looking at it now|As I see it] {list} [have claimed|are claiming] {role}.",
        "[So far|Right now|As it stands|As of now|At this point|Okay so|Counting up] {list} {claiming}.",
        "[For the record|To sum up|Quick recap|Just so we're clear|Let me sum up|Where we are]: {list} {claiming}.",
        "{list} {claiming}.",
        "[Remember|Note|Keep in mind] that {list} {claiming}.",
    ),
    "agree_vote": (
        "I'll join {to} on {t}.",
        "I'm joining {to} on {t}.",
        "[Same pick as|Same choice as] {to}: {t}.",
        "{to} and I are on the same page: {t}.",
        "Count me in with {to} on {t}.",
        "{to} and I land on the same name: {t}.",
        "I second {to} on {t}.",
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
        "{to} [is spot on|is dead right|is on the money|reads it right|sees it clearly] [about|on|regarding] {t}.",
        "[What|Everything] {to} said about {t} [makes sense|rings true|adds up] to me.",
        "{to} and I [see|read] {t} the same way.",
        "{to} [beat me to it|said it first] [about|on] {t}.",
        "{to} [makes|raises|has] a [fair|solid|strong|sharp] point [about|on] {t}.",
        "[I'm|I am] on the same page as {to} [about|regarding|when it comes to] {t}.",
        "{to} [took the words out of my mouth|read my mind] [about|on] {t}.",
        "[Well said|Exactly right|Couldn't agree more] {to}. [I see|I read] {t} the same way.",
        "I [second|echo] what {to} said about {t}.",
        "{to} has {t} figured out I think.",
        "My read on {t} matches what {to} said.",
        "{to} [has|makes] a [great|very good|really good] case [about|on] {t}.",
        "{to} [got|has got] it right [about|on|with] {t}.",
        "{to} and I are [on the same page|in agreement|of one mind] about {t}.",
        "{to} hit the nail on the head about {t}.",
        "{to} [said|put] it [better than I could|perfectly] about {t}.",
        "{to} [sees|reads] {t} [the way I do|just as I do].",
        "[I'm|I am] [nodding along|in full agreement] with {to} [about|on] {t}.",
        "{to} [isn't wrong|has a case|has a fair case] [about|on] {t}.",
        "{to} [is onto something|may be onto something|could be onto something] with {t}.",
        "[I|We] should listen to {to} about {t}.",
        "{to} I couldn't have said it better about {t}.",
        "{to} [speaks|talks] sense about {t}.",
        "{to}'s read on {t} [is|looks] [right|sound] to me.",
        "{to} {right} [about|on] {t}.",
        "[I think|I'd say|I feel|Honestly] {to} {right} [about|on] {t}.",
        "[Yes|Yeah|Agreed]. {to} {right} [about|on] {t}.",
    ),
}

_TEMPERED: dict[str, dict[str, tuple[str, ...]]] = {
    "calm": {
        "vote": (
            "[After thinking it over|Weighing it all up|On balance] my vote goes to {t}.",
            "[All things weighed|Having listened to everyone] I'm voting for {t}.",
        ),
        "answer": (
            "{to} let's keep calm. [I'm not a werewolf|I'm on the village side].",
            "{to} I understand the worry but I'm on the village side.",
        ),
        "question": ("{to} take your time. Who do you suspect?",),
        "agree": ("{to} makes a [sensible|reasonable|measured] point about {t}.",),
        "nothing": ("I'd rather wait and see [for now|a little longer].",),
    },
    "warm": {
        "vote": ("[No hard feelings|Nothing personal] but my vote goes to {t}.",),
        "answer": (
            "{to} my friend I promise I'm not a werewolf.",
            "{to} I understand. But I'm on your side. [Really|Truly].",
        ),
        "question": ("{to} we'd love to hear from you. Who do you suspect?",),
        "agree": ("{to} I'm glad you said it about {t}.",),
        "nothing": ("I don't want to point at a friend [yet|so soon].",),
    },
    "blunt": {
        "vote": (
            "Simple. My vote goes to {t}.",
            "{t} has to go. That's my vote.",
        ),
        "answer": (
            "{to} you're dead wrong. I'm not a wolf.",
            "{to} stop wasting the day on me. I'm village.",
        ),
        "question": ("{to} who's your wolf? Spit it out.",),
        "agree": ("{to} is [dead right|bang on] about {t}.",),
        "nothing": ("No read yet. Give me more.",),
    },
    "careful": {
        "vote": ("After going over everything my vote goes to {t}.",),
        "answer": (
            "{to} I understand the concern but I am not a werewolf.",
            "{to} please look at what I've actually said. I'm on the village side.",
        ),
        "question": ("{to} if you don't mind who do you suspect?",),
        "agree": ("{to} put it [precisely|carefully|well] about {t}.",),
        "nothing": ("I'd rather not guess without more to go on.",),
    },
    "cheerful": {
        "vote": (
            "Easy one! My vote goes to {t}.",
            "{t} gets my vote today!",
        ),
        "answer": ("{to} oh come on! I'm not a werewolf!",),
        "question": ("{to} your turn! Who do you suspect?",),
        "agree": ("{to} nailed it about {t}!",),
        "nothing": ("No idea yet but I'm having fun!",),
    },
    "wry": {
        "vote": (
            "Call it a hunch but I'm voting for {t}.",
            "In a shocking twist my vote goes to {t}.",
        ),
        "answer": ("{to} that's a bold move. Also a wrong one. I'm not a wolf.",),
        "question": ("{to} don't be shy. Who do you suspect?",),
        "agree": ("For once {to} and I agree on {t}.",),
        "nothing": ("Everyone looks equally shifty to me. Lovely.",),
    },
    "earnest": {
        "vote": ("With a heavy heart I'm voting for {t}.",),
        "answer": ("{to} I swear on my life I'm not a werewolf.",),
        "question": ("{to} please be honest with us. Who do you suspect?",),
        "agree": ("{to} is right about {t}. I mean that.",),
        "nothing": ("I honestly don't know yet and I won't guess.",),
    },
    "nervous": {
        "vote": (
            "Um I think I'll vote for {t}.",
            "I'll vote for {t} I guess.",
        ),
        "answer": ("{to} oh no. I'm really not a werewolf. Please.",),
        "question": ("{to} um who do you suspect?",),
        "agree": ("I think {to} might be right about {t}.",),
        "nothing": ("I really don't know yet. Sorry.",),
    },
}
"""Frames a temperament adds to an act's own (`_FRAMES`): a calm seat weighs things up, a nervous one says "um"."""

_FRIENDLY = re.compile(
    r"\b(?:on your side|against you|(?:same|one) (?:team|side)|count on me|with all of you|"
    r"I(?:'m| am) (?:one of you|with you)|your ally|a friend|my friend|as you are|(?:gone|wolves) too|"
    r"(?:honest|fair) mistake)\b",
    re.IGNORECASE,
)
"""Words of friendship, which an answer to a seat the same turn goes after must not say."""

_DENIALS = (
    "I'm not a wolf",
    "I'm not a werewolf",
    "I'm village",
    "I'm on the village side",
    "I'm one of the good guys",
    "I'm on your side",
    "I'm not your wolf",
    "I'm here for the village",
    "I'm no werewolf",
    "I'm playing for the village",
    "I'm with the village",
    "I'm on team village",
    "I'm as village as they come",
    "I'm working for the village",
    "I'm on the right side",
    "I'm not the wolf here",
    "I'm not who you're looking for",
    "it isn't me",
    "it's not me",
    "you won't find a wolf in me",
    "I'm a good guy here",
    "I'm not a wolf at all",
    "I'm with all of you",
    "I'm not against you",
    "I'm on the good side",
    "I'm on the same team as you",
    "I'm fighting for the village",
    "I want the wolves gone too",
    "I'm hunting the wolves too",
    "I'm not hiding anything",
    "I'm innocent",
    "the wolf is someone else",
    "you've got the wrong one",
    "I'm no wolf",
    "I'm telling the truth",
    "I've got nothing to hide",
    "I'm a friend not a wolf",
    "I'm not one of them",
    "wolves don't talk like me",
    "I'm as honest as they come",
    "I'm rooting for the village",
    "I'm playing it straight",
    "I'm on the side of the good guys",
    "the wolves are elsewhere",
    "I'm as worried about the wolves as you are",
    "I have no reason to lie",
    "I'm on the level",
    "I'm no threat to the village",
    "I'm your ally here",
    "I'm a true friend of the village",
)
"""What an answer to an accuser may say it is (`{deny}`, `{Deny}` at a sentence's start): each reads as no statement."""

_ASKS = (
    "who do you suspect",
    "whom do you suspect",
    "who's your main suspect",
    "who is your top suspect",
    "who looks off to you",
    "who worries you most",
    "who would you vote for",
    "who are you voting for",
    "what's your read",
    "where do you stand",
    "which way are you leaning",
    "who's on your list",
    "who do you have your eye on",
    "who feels off to you",
    "who do you doubt most",
    "who would you put up today",
    "who do you think is a wolf",
    "who's your pick",
    "who has you worried",
    "what's your take",
    "whose story bothers you most",
    "who stands out to you",
    "who's the wolf in your eyes",
    "who would you execute first",
    "who do you trust least",
    "who's been the shadiest",
    "who would you vote out today",
    "who's your wolf",
    "who seems fishy to you",
    "who are you eyeing",
    "who's your gut pick",
    "who do you think is lying",
    "who do you want to hear more from",
    "what do you make of all this",
    "who's at the top of your list",
    "which player worries you",
    "who should we look at",
    "who's been acting odd",
    "whose vote do you doubt",
    "who do you have doubts about",
    "who's your number one suspect",
    "who would you put on trial",
    "who's the likeliest wolf for you",
    "who rubs you the wrong way",
)
"""What a question to a seat may ask it (`{ask}`, `{Ask}` at a sentence's start): each reads as no statement."""
_RIGHTS = (
    "is right",
    "has a point",
    "makes a good point",
    "has it right",
    "is spot on",
    "is dead right",
    "is on the money",
    "reads it right",
    "has a fair case",
    "is onto something",
    "speaks sense",
    "got it right",
    "called it right",
    "put it well",
    "said it well",
    "has a good read",
    "sees it clearly",
    "makes a fair point",
    "has a good point",
    "is on the right track",
    "has a strong case",
    "makes a strong point",
    "is seeing straight",
    "is making sense",
    "has a sharp read",
    "is bang on",
    "hit the mark",
    "nailed it",
    "is right on",
)
"""How a seat agreed with is said to be right (`{right}`: "Ken {right} about Ann")."""
_SEEING = (
    "checked",
    "divined",
    "looked at",
    "looked into",
    "took a look at",
    "had a look at",
    "inspected",
    "investigated",
    "peeked at",
    "scanned",
)
"""How a seer says it divined a seat (`{saw}`: "I {saw} Ken last night and Ken is human")."""

_DOUBTS = (
    "I suspect {t}",
    "I'm suspicious of {t}",
    "I distrust {t}",
    "I doubt {t}",
    "I have doubts about {t}",
    "I'm wary of {t}",
    "I don't trust {t}",
    "I'm uneasy about {t}",
    "{t} feels off to me",
    "{t} looks wolfish to me",
    "{t} is my prime suspect",
    "{t} is the one I suspect most",
    "I bet {t} is a wolf",
    "I think {t} is a wolf",
    "I reckon {t} is a wolf",
    "my gut says {t} is a wolf",
    "{t} smells like a wolf",
    "{t} is suspect in my eyes",
    "{t} is acting like a wolf",
    "{t} seems shady to me",
    "{t} looks suspicious to me",
    "I find {t} suspicious",
    "my suspicion falls on {t}",
    "my eye is on {t}",
    "{t} is my top suspect",
    "{t} strikes me as a wolf",
    "I have my doubts about {t}",
    "I'm pretty sure {t} is a wolf",
    "{t} has wolf written all over them",
    "I've got my eye on {t}",
    "{t} is the wolf I'd pick",
    "I can't trust {t}",
    "{t} looks fishy to me",
    "{t} seems sketchy to me",
    "I have a bad feeling about {t}",
    "my money is on {t}",
    "{t} is looking wolfy",
    "{t} feels like a wolf to me",
    "{t} is my number one suspect",
)
"""How a suspicion of `{t}` may be said (`{doubt}`, `{Doubt}` at a sentence's start): each reads as an accusation."""
_BECAUSE = ("because", "since", "given that", "seeing that", "as", "now that", "considering")
"""What leads a suspicion's reasons (`{because}`)."""

_CLAIMING = (
    "claim {role}",
    "claim to be the {role}",
    "say they are the {role}",
    "say they're the {role}",
    "have come forward as the {role}",
    "have stepped up as the {role}",
    "are calling themselves the {role}",
    "each claim {role}",
    "claim the {role} role",
    "have made {role} claims",
    "have put themselves forward as the {role}",
    "are claiming {role}",
    "have claimed {role}",
)
"""How the seats of a summary are said to claim `{role}` (`{claiming}`): each reads as no statement."""

_VOTES = (
    "I'm voting for {t}",
    "my vote goes to {t}",
    "{t} gets my vote",
    "I'll vote for {t}",
    "I'm putting my vote on {t}",
    "my ballot goes to {t}",
    "I'm casting my vote for {t}",
    "I'll be voting {t}",
    "{t} has my vote",
    "I'm going with {t}",
    "I say we vote out {t}",
    "I'm voting to execute {t}",
    "count my vote for {t}",
    "{t} needs to go",
    "{t} has to go",
    "let's vote out {t}",
    "we need to vote out {t}",
    "I'm backing a vote on {t}",
    "my pick for the vote is {t}",
    "{t} is getting my vote",
    "I'll put my vote on {t}",
    "I'm throwing my vote on {t}",
    "I'm placing my vote on {t}",
    "mark me down as a vote for {t}",
    "I'll cast my vote against {t}",
    "I intend to vote for {t}",
    "I plan to vote for {t}",
    "{t} must go",
    "join me on {t}",
    "vote {t} with me",
    "my vote lands on {t}",
    "I'm voting {t} out",
    "I'd like us to vote out {t}",
    "we should execute {t}",
)
"""How a vote for `{t}` may be said (`{vote}`, `{Vote}` at a sentence's start): each reads as that vote."""
_FAKES = (
    "{t} is lying about being the {role}",
    "{t} is a fake {role}",
    "{t} is not the real {role}",
    "{t} is no {role}",
    "{t} is faking the {role} claim",
    "{t} lied about being the {role}",
    "{t}'s {role} claim is fake",
    "{t}'s {role} claim is a lie",
    "the {role} claim from {t} is fake",
    "{t} is an impostor posing as the {role}",
    "{t} is obviously not the real {role}",
    "{t} can't be the real {role}",
    "{t} is a false {role}",
    "{t}'s {role} claim is a bluff",
    "{t} is clearly no {role}",
    "{t} is definitely a fake {role}",
    "{t} is no real {role}",
)
"""How `{t}` may be called a liar about `{role}` (`{fake}`, `{Fake}`): each reads as that liar call."""

_LISTS: dict[str, tuple[str, ...]] = {
    "deny": _DENIALS,
    "ask": _ASKS,
    "right": _RIGHTS,
    "saw": _SEEING,
    "doubt": _DOUBTS,
    "because": _BECAUSE,
    "claiming": _CLAIMING,
    "vote": _VOTES,
    "fake": _FAKES,
}
"""The slots a frame fills with one wording of a list (`{deny}`; `{Deny}`: the same at a sentence's start),
and their lists (a wording may hold the act's `{t}` and `{role}`)."""

_REPLIES = (
    "To answer {to}: ",
    "{to} since you ask: ",
    "In reply to {to}: ",
    "{to} to answer your question: ",
    "{to} here's my answer: ",
    "For {to}: ",
    "Good question {to}. ",
    "Fair question {to}. ",
    "{to} glad you asked. ",
    "Answering {to}: ",
    "As for your question {to}: ",
)
"""How an opinion given in answer to a question starts (and `{to} ` before an opinion that starts with "I" and
is about the seat addressed or no one)."""

_AGAIN = (
    "Like I said ",
    "Again: ",
    "As I said before ",
    "To repeat: ",
    "I'll say it again: ",
    "Once more: ",
    "As I mentioned ",
    "Let me say it again: ",
    "One more time: ",
)
"""How a repeated act's sentence starts (the sentence goes on after it, see `_again`; no commas: AIWolf
servers refuse them in talk)."""
_AGAIN_OPINION = (
    "I still stand by it: ",
    "Nothing has changed: ",
    "Same as before: ",
    "Still the same for me: ",
    "My view is the same: ",
)
"""More leads for a repeated opinion (a question asked again is not a view one stands by)."""


_CHANGED = (
    "I changed my mind. ",
    "Change of plan. ",
    "I've changed my mind. ",
    "New plan. ",
    "On second thought ",
    "Scratch what I said before. ",
    "I'm switching. ",
    "That changes things. ",
    "I take back my earlier vote. ",
)
"""How a vote that replaces one the speaker said earlier that day starts (`SpeechAct.said == "changed"`)."""


def _again(lead: str, sentence: str, names: Sequence[str]) -> str:
    """`sentence` led by `lead`: its first letter lowered unless it starts with "I" or a player's name.

    A lead that is a sentence of its own keeps the capital ("Good question Ken. My vote goes to Ann.").
    """
    if lead.rstrip().endswith((".", "!", "?")):
        return lead + sentence
    if sentence.startswith(("I ", "I'")) or any(sentence.startswith(n) for n in names if n):
        return lead + sentence
    return lead + sentence[:1].lower() + sentence[1:]


_ANSWER_WORD = re.compile(r"^(?:Yes|Yeah|Agreed)\.\s+")
"""A word that answers what was just said, set apart at a sentence's start."""

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
        "Let's keep a level head.",
        "Let me gather my thoughts.",
        "Right. Let's think clearly.",
        "[Deep breath everyone|Easy does it|Steady now].",
        "[Let's|Let me] [weigh|go over|sort through] [what we have|what we know|the evidence][ so far| calmly|].",
        "[Alright|Okay|Right] [let's see|let me see|where were we].",
        "Let's not get ahead of ourselves.",
        "A moment of calm please.",
        "Let's look at this with clear eyes.",
        "[Quietly|Gently|Patiently] now.",
        "Here's my measured take.",
        "Let's stick to what we know.",
        "[No drama|No panic|No shouting] please.",
        "Let's [think|reason] this through [together|carefully|slowly].",
        "[Steady|Easy] everyone.",
        "I've been [listening|watching] quietly.",
        "Let's [take|have] a [calm|clear|careful] look.",
        "Let me share [my thinking|a thought|where my head is].",
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
        "Hello again my friends.",
        "[Thanks|Thank you] for your patience [everyone|friends|all].",
        "[It's|It is] [lovely|good|nice] to [hear|talk with] you all[ again| today|].",
        "I hope everyone is holding up okay.",
        "[Dear|My] friends [listen|hear me out][ please| a moment|].",
        "[Hey|Hi|Hello] [friends|everyone|all] [it's me again|good to be back|nice to talk again].",
        "I'm glad we can talk this through.",
        "[Lovely|Nice|Great] to hear everyone's voice.",
        "You're all doing so well.",
        "Thank you all for being so open.",
        "[Right|Okay] my [dears|friends|lovelies].",
        "I hope nobody takes this the wrong way.",
        "With kindness to everyone.",
        "[Sweet|Dear] friends [hello|hi] again.",
        "I [appreciate|value] [you all|this group|every voice here].",
        "Let's be [kind|gentle|fair] to each other.",
        "[Oh|Ah] it's good to [talk|chat] with you all.",
        "[Much|Lots of] love to this table.",
        "I hope you're all [well|holding up|doing okay].",
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
        "[Let's|I'll] [get to the point|not waste words|skip the small talk].",
        "Enough circling.",
        "Here's the deal.",
        "I'll be blunt.",
        "[No more|Enough] [beating around the bush|dancing around it|waffling].",
        "[Right|Okay|Fine]. [Straight up|No nonsense|Plain talk].",
        "I don't do small talk.",
        "Let's not waste the day.",
        "Here's how it is.",
        "Short and to the point.",
        "[Enough|Stop] [talking in circles|going around in circles].",
        "Spare me the excuses.",
        "I'll say it once.",
        "[Fine|Okay|Right]. Here it is.",
        "[Cut|Skip] the [chatter|fluff|waffle].",
        "Facts first.",
        "I'll be [frank|straight|direct] with you.",
        "Let's [get|cut] to it.",
        "No sugar coating.",
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
        "[Let me|I want to] [choose my words|be careful here|get the details right].",
        "If I could have a moment.",
        "[Just|Only] a [small|quick|careful] note.",
        "I'll try to be accurate.",
        "Let me set out what I think.",
        "[Let me|I'd like to] [think aloud|reason it out|be methodical] [for a moment|briefly|here].",
        "I've been keeping notes.",
        "Let's go through it in order.",
        "Allow me a careful word.",
        "I'll be as precise as I can.",
        "Let me state this plainly.",
        "One thing at a time please.",
        "If I've understood things right.",
        "[Just|Allow me] a [quick|brief] [clarification|observation|point].",
        "[I've|I have] [weighed|checked] my words.",
        "Let me [be|stay] accurate here.",
        "[Carefully|Precisely] speaking.",
        "I'll keep this [tidy|orderly|brief].",
        "Bear with me a moment.",
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
        "[Ooh|Oh wow|Wow] [okay|alright|right]!",
        "[Here|Off] we go again!",
        "Okay team huddle!",
        "[This is getting good|Things are heating up|The plot thickens]!",
        "Right right right!",
        "[Yay|Yes|Ooh] [okay|alright|here we go]!",
        "Love it!",
        "What fun!",
        "[Okay|Right|Alright] [gang|crew|friends] [listen up|gather round]!",
        "Ready or not!",
        "Let's keep the good vibes going!",
        "[Good|Great] [morning|day] [sunshine|team|gang]!",
        "Ha okay!",
        "[Oh|Ooh] [boy|man] here we go!",
        "[This|Today] is [so|really] exciting!",
        "[Hello|Hi] [again|there] [everybody|gang]!",
        "[Time|Ready] for [round two|more fun|some action]!",
        "Whee!",
        "[Big|Happy] smiles everyone!",
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
        "[Well|Oh] isn't this [fun|cosy|lovely|charming].",
        "Another day in paradise.",
        "[Well|So] here we all are.",
        "What a [lovely|charming|merry] bunch we are.",
        "Ah the joys of village life.",
        "[Oh|Well] [how exciting|how thrilling|what fun].",
        "Just when things were getting boring.",
        "Ah [wonderful|splendid|marvellous].",
        "Brace yourselves.",
        "[Here|There] we [go|are] then.",
        "What a [delight|pleasure|treat].",
        "I'm sure this will go well.",
        "Hold onto your hats.",
        "[Another|One more] [glorious|lovely|fine] day in the village.",
        "[Well|So] [this|that] [escalated|developed] [quickly|nicely].",
        "[I|We] [live|live and breathe] for this.",
        "[Naturally|Obviously|Predictably].",
        "Oh joy.",
        "Who could have seen this coming.",
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
        "[Please|Everyone] [listen carefully|hear me out|bear with me][ for a moment| now|].",
        "I want to be completely honest.",
        "This is serious everyone.",
        "I've thought hard about this.",
        "[I mean|I really mean] every word of this.",
        "[Friends|Everyone] I need you to hear this.",
        "[This|It] matters more than anything today.",
        "[Please|Honestly] [give me|lend me] a moment.",
        "I'm speaking from the heart.",
        "I won't pretend this is easy.",
        "I care about every one of you.",
        "I have thought about this all night.",
        "Let's be honest with each other.",
        "[I|We] [can't|mustn't] get this wrong.",
        "Please [trust|believe] that I mean well.",
        "[Our lives depend|The village depends] on this.",
        "I'll [speak|say this] [plainly|truthfully|sincerely].",
        "[With|In] all [honesty|seriousness].",
        "I've given this [real|serious|a lot of] thought.",
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
        "[Um|Uh|Oh] [okay|so|right] [here goes|let me try|bear with me].",
        "I'm a bit shaky here.",
        "Oh gosh okay.",
        "Sorry this is hard.",
        "[Hmm|Um] let me [think|see].",
        "[Okay|Alright] [um|uh] [so|right|here goes].",
        "I'm [a little|kind of|really] [anxious|jittery|on edge] [today|right now|about this].",
        "Eek okay.",
        "Don't laugh at me.",
        "[Gosh|Goodness] this is [hard|scary|nerve-racking].",
        "I'll try not to ramble.",
        "Please be gentle.",
        "Um hi again.",
        "Oh dear [okay|alright].",
        "Sorry I get flustered [easily|sometimes].",
        "Please don't [stare|look at me like that].",
        "Oh my goodness.",
        "I'll [try|do] my best.",
        "Sorry in advance.",
    ),
}

_MOURNING: dict[str, tuple[str, ...]] = {
    "calm": (
        "We lost {dead} in the night.",
        "[A hard|A sad|A grim] morning without {dead}.",
        "{dead} {is} gone. Let's [keep our heads|think clearly|stay steady].",
        "[Sad|Hard|Grim] news about {dead}. Let's [stay calm|not panic|take stock].",
        "So {dead} {was} [killed|taken] [in the night|overnight].",
        "[Rest easy|Rest well] {dead}. Now let's think.",
    ),
    "warm": (
        "Poor {dead}.",
        "I'm so sorry about {dead}.",
        "[Rest well|Rest easy|Sleep well] {dead}.",
        "My heart goes out to {dead}.",
        "[Oh|Ah] {dead}. [You'll be missed|We'll miss you].",
        "[Losing|Waking up without] {dead} [hurts|is hard][ everyone| friends|].",
    ),
    "blunt": (
        "{dead} {is} dead.",
        "They got {dead}.",
        "[Another|One more] night [another|one more] body. {dead} this time.",
        "{dead} {is} gone. Let's find who did it.",
        "[So|Right] {dead} [didn't make it|is out].",
        "[They|The wolves] [took|picked off] {dead}. [Fine|Right|Noted].",
    ),
    "careful": (
        "We lost {dead} last night. [Let's|Let me] think about why.",
        "{dead} died in the night. That tells us something.",
        "[Note|Let's note] who was killed: {dead}.",
        "[So|Then] {dead} {was} the [target|one taken] last night.",
        "[The night|Last night] cost us {dead}. [Let's|Let me] be careful now.",
    ),
    "cheerful": (
        "Chin up everyone even after losing {dead}!",
        "Sad about {dead} but we keep going!",
        "[We'll|Let's] win this for {dead}!",
        "[Chins up|Heads up] [team|everyone|folks]! [We lost|Goodbye] {dead} but we can still do this!",
        "[Oh|Aw] {dead}! [Let's|We'll] make it count!",
    ),
    "wry": (
        "Well {dead} won't be joining us today.",
        "[So much|So] for {dead}.",
        "Well that's {dead} gone.",
        "Someone [really|clearly] didn't like {dead}.",
        "[Goodbye|Farewell] {dead}. [Nobody|No one] is safe [it seems|apparently].",
        "And then there were fewer. [Poor|Sorry] {dead}.",
    ),
    "earnest": (
        "I'm truly sorry about {dead}.",
        "We owe it to {dead} to get this right.",
        "{dead} deserved better.",
        "[Let's|We must] [honour|remember] {dead} by [finding the wolves|getting this right].",
        "[Losing|We lost] {dead}. [That|It] [hurts|matters].",
    ),
    "nervous": (
        "Oh no {dead}...",
        "They got {dead}. [I'm scared|This is scary|I'm shaking].",
        "Oh gosh poor {dead}.",
        "[Any of us|I] could be next after {dead}.",
        "[Um|Oh] {dead} {is} [gone|dead]. [Okay|Okay okay].",
    ),
}
"""What a seat says first on a morning that found players dead, by temperament (`{dead}` the dead,
`{is}`/`{was}` their verb): said once, on the seat's first turn of the day, naming only the dead."""

_QUIET: dict[str, tuple[str, ...]] = {
    "calm": ("A quiet night. Good.", "Nobody died last night. Let's use that."),
    "warm": ("[Thank goodness|Oh thank heavens] nobody died.", "[Everyone|All of us] made it through the night."),
    "blunt": ("Nobody died. [Fine|Good].", "No body this morning."),
    "careful": ("Nobody died last night. [That tells us something|Worth noting].", "A night without a death."),
    "cheerful": ("Nobody died! [Good morning|What a relief]!", "Everyone made it! [Yay|Hooray]!"),
    "wry": ("Nobody died. [How unusual|Miracles happen].", "[Well|Oh] everyone's still here. [Shocking|Imagine that]."),
    "earnest": ("[I'm so glad|Thank goodness] nobody died last night.", "We all made it through the night."),
    "nervous": ("[Phew|Oh phew] nobody died.", "[I'm|We're] still [here|alive]. [Phew|Okay]."),
}
"""What a seat says first on a morning after a night without a death, by temperament."""

_BRIGHT = re.compile(
    r"\b(?:fun|sunshine|vibes|exciting|thrilling|whee|smiles?|love it|woo|yay|good news|what a game|"
    r"let's do this|lovely|delight\w*|nice|cosy|paradise|glad|great|merry|joys?|wonderful|splendid|"
    r"marvellous|glorious|treat|pleasure|charming|good (?:morning|day)|fine day|live for this|"
    r"getting (?:good|boring)|heating up|plot thickens|buckle up|ready or not|round two|some action|all here|"
    r"having fun|best game|feeling lucky|happy|hooray|whee|yippee|huddle|"
    r"love|escalated|developed nicely|go well|good to (?:see|hear|be back)|doing so well|holding up okay|"
    r"hey hey|ha okay|ooh|wow|right right right|(?:hello|hi) (?:again|there)|gang|(?:here|off) we go|"
    r"yes (?:alright|okay))\b",
    re.IGNORECASE,
)
"""Words too bright for a morning that found a player dead (openers and asides that say them are not said then)."""

_NEWS_CHANCE = {"terse": 0.35, "plain": 0.7, "chatty": 0.9}
"""How often a candidate for a seat's first turn of a day opens with the night's news, by verbosity."""


@dataclass(frozen=True)
class Morning:
    """How the day began, as every seat saw it: the seats found dead, or a night without a death.

    `first`: the seat has not yet spoken in today's public talk (the news is said once).
    """

    dead: tuple[int, ...] = ()
    peaceful: bool = False
    first: bool = False


def morning_of(view: View) -> Morning:
    """The `Morning` of `view`'s day (public events only: the night's deaths, a quiet night, its own talk).

    A night without an attack (night 0 where the rules have none) is no news.
    """
    dead = tuple(e.target for e in view.events if isinstance(e, Died) and e.cause == "night" and e.day == view.day)
    peaceful = any(isinstance(e, PeacefulNight) and e.day == view.day for e in view.events)
    spoke = any(
        isinstance(e, Talk) and e.actor == view.seat and e.day == view.day and e.channel == "talk" and not e.over
        for e in view.events
    )
    attacked = view.day > 1 or (view.day == 1 and view.rules.options.first_night_attack)  # a night that could kill
    return Morning(dead if view.day > 0 else (), peaceful and attacked, not spoke)


def _news(morning: Morning, names: Sequence[str], temperament: str, rng: random.Random) -> str:
    """A first line about the night (`_MOURNING` or `_QUIET`), naming only the dead."""
    if morning.dead:
        dead = [names[s] for s in morning.dead]
        who, many = " and ".join(dead), len(dead) > 1
        line = _expand(rng.choice(_MOURNING[temperament]), rng)
        return _cap(line.format(dead=who, **{"is": "are" if many else "is", "was": "were" if many else "was"}))
    return _expand(rng.choice(_QUIET[temperament]), rng)


_ADDRESS = frozenset({"everyone", "everybody", "folks", "friends", "guys", "y'all", "gang", "team"})
"""Words that address the table: a turn says one of them once (not "Stay sharp everyone. Hang in there everyone.")."""


def _calls(text: str) -> bool:
    """Whether `text` addresses the table (`_ADDRESS`, "everyone's" too)."""
    return any(w.removesuffix("'s") in _ADDRESS for w in re.findall(r"[a-z']+", text.lower()))


def _repeats(line: str, parts: Sequence[str]) -> bool:
    """Whether `line` repeats what `parts` (what the turn said) say, or calls the table again.

    A repeat is three words running, or a sentence said again to someone else ("Ken I'm village.
    Ann I'm village.").
    """

    def runs(text: str) -> set[tuple[str, ...]]:
        words = re.findall(r"[a-z']+", text.lower())
        return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}

    said = set().union(*(runs(p) for p in parts)) if parts else set()
    again = set().union(*(_sentence_words(p) for p in parts)) if parts else set()
    return bool(runs(line) & said or _sentence_words(line) & again) or (any(_calls(p) for p in parts) and _calls(line))


def _sentence_words(text: str) -> set[tuple[str, ...]]:
    """The sentences of two or more words of `text`, each as its words lower-cased, names left out.

    A name is a capitalised word other than "I" ("Ken I'm village." is "i'm village").
    """
    out = set()
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        words = tuple(
            w.lower()
            for w in re.findall(r"[A-Za-z']+", sentence)
            if not w[0].isupper() or w in ("I", "I'm", "I've", "I'd", "I'll")
        )
        if len(words) >= 2:
            out.add(words)
    return out


def _unbright(pool: Sequence[str], rng: random.Random) -> str | None:
    """A line of `pool`, expanded so that it says nothing too bright for a sad morning (None if none does)."""
    for frame in rng.sample(list(pool), len(pool)):
        for _ in range(4):
            text = _expand(frame, rng)
            if not _BRIGHT.search(text):
                return text
    return None


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
        "What's everyone's read?",
        "Anyone want to push back?",
        "Convince me otherwise.",
        "[What do you all think|Does anyone see it differently|Anyone want to weigh in|Who disagrees]"
        "[ here| on this|]?",
        "Who agrees?",
        "What am I missing?",
        "[Does|Do] [anyone|any of you] [see it|read it] [differently|another way]?",
        "Tell me what you think.",
        "[Any|Other] [thoughts|views|reads] on that?",
        "[Who wants|Does anyone want] to [argue|push back|chime in]?",
        "How do [the rest of you|others] [see it|feel about it]?",
        "Is anyone [reading it|seeing it] [differently|the other way]?",
        "[Tell me|Let me know] if I'm [wrong|missing something].",
        "Who's [with me|on board]?",
        "[Anybody|Anyone] [else|] [think so|agree|see it too]?",
        "[Convince me|Show me] [otherwise|I'm wrong].",
        "[Is that fair|Does that sound fair|Is that reasonable]?",
        "Anyone care to [respond|add something]?",
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
        "[Let's|We should] [all|] [vote together|agree on one name|pick one name][ today| this time|].",
        "[One name|A single target] [today|this round] please.",
        "If we split we lose.",
        "Stick together at the vote.",
        "Let's not scatter our votes today.",
        "[Let's|We should] [settle on|choose] one name before the vote.",
        "If we stay together the wolves lose.",
        "[Splitting|Scattering] our votes [helps|only helps] the other side.",
        "Let's all pull in the same direction.",
        "[Keep|Hold] the line at the vote.",
        "[Let's|We must] [agree|settle] before [the vote|time runs out].",
        "[United|Together] we [win|stand].",
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
        "That's [all|it] from me[ for now| today|].",
        "[That's|Those are] my [thoughts|two cents][ for now| today|].",
        "[That's|That is] [how I see it|where I'm at|where I am][ right now| for now|].",
        "Enough from me.",
        "[I'm|I am] done for now.",
        "[That|This] is [my view|my case|my position][ in short| for now|].",
        "[So|And] that's [my piece|my say|that].",
        "Nothing to add [for now|beyond that].",
        "That's [the gist|the long and short of it].",
        "[I've said|I said] my piece.",
        "[That's|That is] [everything|all] I've got.",
        "[Okay|Right] that's me [done|finished].",
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
        "[I'm|I am] [not|far from] [certain|sure][ though| about it|].",
        "Don't hold me to it.",
        "I'm open to being wrong.",
        "[Just|Only] [a feeling|a read|my gut][ for now| though|].",
        "[That|This] [could|might] change [later|tomorrow].",
        "[But|Then again] [who knows|I might be off].",
        "Don't take it as gospel.",
        "I'm [still|] [a bit|somewhat|fairly] unsure.",
        "[That's|It's] [only|just] my [feeling|impression|reading].",
        "I'll happily change my mind.",
        "No [guarantees|promises] though.",
        "[I'm|I am] [only|just] going on instinct.",
    ),
    "emphasis": (
        "This matters.",
        "I can't stress this enough.",
        "This is the key point.",
        "Think hard about that.",
        "Don't let this slide.",
        "It's important.",
        "We can't ignore it.",
        "I mean it.",
        "I'm serious about this.",
        "I won't budge on this.",
        "I feel strongly about this.",
        "[I'm|I am] [dead|very|completely] serious[ about this| here|].",
        "[I'm|I am] [sure|certain|confident] [of|about] [this|it].",
        "[Please|Do] take this seriously.",
        "[This|That] is [no small thing|a big deal].",
        "[I'm|I am] not joking.",
        "I stand by [this|it] completely.",
        "[Listen|Hear me] on this one.",
        "[I'm|I am] [firm|clear] on this.",
        "[This|That] [needs saying|had to be said].",
    ),
    "remember": (
        "Please remember that.",
        "Mark my words.",
        "Don't forget that.",
        "Remember this later.",
        "Keep it in mind at the vote.",
        "Write that down.",
        "Remember who said it.",
        "Take note.",
        "Keep that in mind.",
        "[Remember|Don't forget|Keep in mind] [that|this|what I said][ at the vote| later| tomorrow|].",
        "[Make a note of|Note|Mark] [that|this][ please| everyone|].",
        "[Hold on to|Hang on to] that[ for later| for tomorrow|].",
        "Don't lose sight of that.",
        "[Please|Do] keep [that|this] in mind.",
        "[Write|Jot] [that|this] down[ somewhere| for later|].",
        "[Bear|Keep] [that|this] in mind [later|tomorrow|at the vote].",
        "Remember I said it first.",
        "[It will|That will] matter [later|tomorrow].",
        "[Note|Mark] that well.",
        "Don't let that [slip|get lost].",
    ),
    "names": (
        "Think about it.",
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
        "[Think|Chew] on that[ a while| for a bit|].",
        "We'll see soon enough.",
        "[Just|Only] something to consider.",
        "Watch how this plays out.",
        "[Let's|We'll] see who [squirms|flinches|pushes back].",
        "[See|Watch] who [reacts|squirms|goes quiet] now.",
        "[Let's|We'll] see what happens.",
        "[Something|Just something] to think about.",
        "We'll know [soon|before long].",
        "[Mull|Think] it over.",
        "[Keep|Stay] [alert|watchful].",
        "Just [food for thought|something to ponder].",
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
        "[Let's|We can] [take it|go] [slowly|one step at a time].",
        "Cool heads win games.",
        "There's no need to panic.",
        "[Panic|Shouting] [helps|solves] nothing.",
        "Let's keep things [steady|calm|even].",
        "Breathe everyone.",
        "One step at a time everyone.",
        "[We're|We are] doing [fine|okay|well].",
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
        "I [care about|believe in] [this group|all of you].",
        "Hang in there everyone.",
        "Be kind to each other.",
        "I'm [rooting|cheering] for all of us.",
        "[Sending|Much] love to everyone.",
        "We'll get there together.",
        "[Thank you|Thanks] for [listening|your patience].",
        "[You're|You are] all [lovely|wonderful].",
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
        "We [don't have time for|can't afford] [games|excuses|waffle].",
        "Take it or leave it.",
        "No point dressing it up.",
        "[That's|This is] [reality|the truth] whether we like it or not.",
        "I won't dress it up.",
        "Sorry if that stings.",
        "[Deal with it|Like it or lump it].",
        "The truth [hurts|stings] sometimes.",
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
        "I've [gone over|been through] [the details|the talk|it all] [carefully|twice|again].",
        "I try not to jump to conclusions.",
        "Precision matters here.",
        "[I'm|I am] [weighing|checking] every word.",
        "Small details add up.",
        "I'd rather be slow than wrong.",
        "[I|I've] [double|triple] checked.",
        "[Accuracy|Care] [matters|counts] here.",
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
        "[This|Today] is [fun|exciting|great]!",
        "Go team!",
        "Keep the energy up!",
        "[Woo|Yay|Woohoo]!",
        "[Best|Greatest] [game|day] ever!",
        "I love this table!",
        "[Hooray|Yippee]!",
        "[Such|What] a [great|fun] [game|table]!",
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
        "[Color|Colour] me [amazed|astonished|unsurprised].",
        "As one does.",
        "The suspense is killing me.",
        "[Riveting|Gripping|Thrilling] stuff [really|honestly|truly].",
        "I'm shocked. Truly shocked.",
        "Who would have thought.",
        "[Fascinating|Charming] [really|as always].",
        "[Quelle|What a] surprise.",
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
        "We owe it to [the village|each other|everyone] to get this right.",
        "I'm not taking this lightly.",
        "Please believe I mean well.",
        "[I|We] [must|have to] get this right.",
        "I'm giving it everything I have.",
        "I'm doing my honest best.",
        "We owe it to [everyone|ourselves].",
        "[I'm|I am] [totally|completely] sincere.",
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
        "My heart is [racing|pounding].",
        "I hope nobody is mad at me.",
        "Sorry I'm rambling.",
        "[Oh|Gosh] I hope I'm right.",
        "I'm so [nervous|jumpy|shaky] [today|right now].",
        "Please don't hate me.",
        "[Eep|Eek] sorry.",
        "[I'm|I am] [trembling|shaking] [a bit|a little].",
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
    "Well",
    "So",
    "Okay so",
    "Simply put",
    "To my mind",
    "As things stand",
    "In the end",
    "When all is said and done",
    "Make no mistake",
    "Mind you",
    "Thinking it over",
    "After hearing everyone",
    "Weighing it all up",
    "In all honesty",
    "On balance",
    "Looking at it all",
    "At the moment",
)
"""Discourse markers that may lead a sentence (`Honestly I will vote for ...`)."""
_TIME_MARKERS = frozenset({"At this point", "Right now", "For now", "At the moment", "As things stand"})
"""Markers that say when: not put before a sentence that already does ("... for now", "... yet")."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One wording of an utterance: its text and where it came from (`grammar`, `model`, `template`)."""

    text: str
    source: str


_LAST_NIGHT = ("last night", "overnight", "during the night")
"""How a result of last night says when (`{when}`; an earlier night is "on night 2")."""
_WEIGHT_POWER = 0.4
"""A frame's weight is its number of wordings to this power (see `_weight`)."""

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


_RESULTS: dict[Species, tuple[str, ...]] = {
    Species.WEREWOLF: ("a werewolf", "a wolf"),
    Species.HUMAN: ("human", "innocent", "clean"),
}
"""The words a seer or medium may say a result in (the talk reader reads each as its species)."""


def _res(species: Species | None, rng: random.Random) -> str:
    return rng.choice(_RESULTS[Species.WEREWOLF if species is Species.WEREWOLF else Species.HUMAN])


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _wordings(reason: Reason, short: bool) -> tuple[str, ...]:
    """The wordings of `reason` a sentence may say it in (`short`: those near the shortest)."""
    said = (reason.text, *reason.others)
    if not short:
        return said
    least = min(spoken_length(w) for w in said)
    return tuple(w for w in said if spoken_length(w) <= least + 6)


@functools.lru_cache(maxsize=4096)
def _weight(frame: str) -> float:
    """How often `frame` is drawn beside the others: a frame of many wordings more often than a fixed one."""
    ways = len(expansions(frame))
    for slot, wordings in _LISTS.items():
        if f"{{{slot}}}" in frame or f"{{{slot.capitalize()}}}" in frame:
            ways *= len(wordings)
    return float(ways**_WEIGHT_POWER)


def _slots(
    act: SpeechAct, names: Sequence[str], night: int, day: int, rng: random.Random, short: bool
) -> dict[str, str]:
    """What a frame's slots say for `act`: its seats, role, result and night, reasons, and one wording of each list."""
    when = rng.choice(_LAST_NIGHT) if night == day - 1 else f"on night {night}"
    why = " and ".join(rng.choice(_wordings(r, short)) for r in act.reasons)
    target, role = names[act.target] if act.target is not None else "", act.role or "seer"
    slots = {
        "t": target,
        "to": names[act.to] if act.to is not None else "",
        "role": role,
        "res": _res(act.species, rng),
        "when": when,
        "When": _cap(when),
        "when_short": "last night" if night == day - 1 else f"night {night}",
        "why": why,
        "Why": _cap(why),
        "list": " and ".join(names[s] for s in act.seats),
    }
    for slot, wordings in _LISTS.items():
        said = rng.choice(wordings).format(t=target, role=role)
        slots[slot], slots[slot.capitalize()] = said, _cap(said)
    return slots


def _sentence(
    act: SpeechAct,
    names: Sequence[str],
    day: int,
    rng: random.Random,
    used: set[str],
    temperament: str = "",
    *,
    short: bool = False,
) -> str:
    """One realisation of `act` (its reasons kept word for word), in a frame not in `used` where one is left.

    The frames are the act kind's own and those the speaker's `temperament` adds (`_TEMPERED`).
    `short`: for a turn that must fit a tight talk limit, a wording about as short as the act's
    template words where a few draws find one, the shortest wordings of the reasons, and no marker
    or reply lead of more words.
    """
    kind = act.kind
    grammar: str = "suspect_bare" if kind == "suspect" and not act.reasons else kind
    if kind == "agree" and act.said == "vote":
        grammar = "agree_vote"  # joining a seat that only said its vote: no point of theirs to agree with
    frames = _FRAMES.get(grammar, ())
    if frames:
        frames += _TEMPERED.get(temperament, {}).get(grammar, ())
    if not frames:
        return act.template(tuple(names), day)
    night = act.night if act.night >= 0 else day - 1
    fresh = [f for f in frames if f not in used] or list(frames)
    pool = [f for f in fresh if _said_in_time(f, day)] or fresh  # no past votes before a vote
    weights = [_weight(f) for f in pool]
    room = spoken_length(act.template(tuple(names), day)) + 4 if short else 0  # what a short wording may take
    for _ in range(12 if short else 1):  # short: the first of a few draws that fits the room
        frame = rng.choices(pool, weights=weights)[0]
        text = _expand(frame, rng)
        for _ in range(8):  # a choice inside the frame may speak of past votes: choose again
            if _said_in_time(text, day):
                break
            text = _expand(frame, rng)
        text = text.format(**_slots(act, names, night, day, rng, short))
        text = re.sub(r"\b(on|upon) on\b", r"\1 about", text)  # "Ken is spot on about Ann", never "spot on on"
        if not short or spoken_length(text) <= room:
            break
    used.add(frame)
    if kind == "greet":  # a second sentence that calls the table once only ("Morning folks. Stay sharp everyone.")
        more = _expand(rng.choice(_FRAMES["greet_more"]), rng)
        for _ in range(6):
            if not _repeats(more, [text]):
                break
            more = _expand(rng.choice(_FRAMES["greet_more"]), rng)
        text = f"{text} {more}"
    text = _cap(text)
    # (not before a reply's own lead: "In reply to Ken: so I trust Ann.")
    if (
        kind in OPINIONS
        and act.to is None
        and text.startswith(("I ", "I'", "My "))
        and not short
        and rng.random() < 0.35
    ):
        timed = re.search(
            r"\b(?:for now|yet|so far|at this point|right now|at the moment|currently|today)\b", text, re.IGNORECASE
        )
        # not "Right now ... for now", nor a marker another act of the turn took
        markers = [
            m
            for m in _MARKERS
            if not (timed and m in _TIME_MARKERS) and m not in used and not (_calls(m) and _calls(text))
        ]
        if markers:
            marker = rng.choice(markers)
            used.add(marker)
            text = f"{marker} {text[:1].lower() + text[1:] if text.startswith('My') else text}"
    if kind == "vote" and act.said == "changed" and not short:  # (a tight turn says the new vote alone)
        # a lead that runs on into the words ("On second thought I ...") only before one sentence, not
        # before a marker of its own ("On second thought easy call. I plan to vote for Ken.")
        changed = _CHANGED if not re.search(r"[.!?]\s", text) else tuple(x for x in _CHANGED if x.rstrip()[-1] in ".!?")
        text = _again(rng.choice(changed), text, names)
    if act.to is not None and kind in OPINIONS:
        # the bare name only where the opinion is about the seat addressed: without a comma, "Aster I
        # trust Yarrow." reads as a list of names, not an answer to Aster
        bare = text.startswith(("I ", "I'")) and act.target in (None, act.to)
        leads: tuple[str, ...] = (*_REPLIES, "{to} ") if bare else _REPLIES
        if short:
            leads = tuple(lead for lead in leads if spoken_length(lead) <= spoken_length("For {to}: "))
        # a frame's own "So" or "Then" concludes from nothing after a reply's lead ("Answering Juniper: so I'll
        # vote for Moss.")
        text = re.sub(r"^(?:So|Then)\s+(?!far\b)", "", text)
        text = text[:1].upper() + text[1:]  # (a lead that is a sentence of its own keeps the capital)
        text = _again(rng.choice(leads).format(to=names[act.to]), text, names)
    return text


_CLOSES: dict[str, frozenset[str]] = {
    "questions": frozenset({"suspect", "vote", "trust", "liar", "agree", "summary", "divined", "medium"}),
    "plans": frozenset({"vote", "agree"}),
    "summaries": frozenset({"suspect", "vote", "trust", "liar", "agree", "nothing"}),
    "hedges": frozenset({"suspect", "vote", "trust", "agree"}),
    "emphasis": frozenset({"claim", "divined", "medium", "protected", "liar", "suspect", "vote", "summary"}),
    "remember": frozenset({"claim", "divined", "medium", "protected", "summary"}),
    "names": frozenset({"suspect", "liar", "divined", "medium", "summary", "trust"}),
}
"""The acts after which a group of closing lines makes sense: a plan for the vote follows a vote, a
hedge an opinion (never a result, a claim or a denial: "I'm not a werewolf. Not set in stone."),
emphasis a statement (never a question or a greeting), and a line that asks the table to remember
only what is worth remembering: a claim, a result, the claims so far (never a vote: "I will vote
for Ken. Please remember that.")."""
_HABIT_CLOSERS: dict[str, tuple[str, ...]] = {"emphasis": ("emphasis", "remember")}
"""The groups of `_CLOSERS` a habit draws its closing lines from (a habit not here: its own group)."""


def _closes(group: str, acts: Sequence[SpeechAct]) -> bool:
    """Whether a closing line of `group` fits after `acts` (the last act that is not a question decides)."""
    told = [a for a in acts if a.kind != "question"]
    if group == "questions" and len(told) < len(acts):
        return False  # one question a turn
    if not told or told[-1].kind not in _CLOSES.get(group, frozenset()):
        return False
    last = told[-1]
    if group == "emphasis" and last.kind == "vote" and not last.reasons:
        # a vote stressed only where the turn gives it grounds ("I will vote for Ken. I can't stress
        # this enough." after nothing said of Ken is bluster)
        return any(a.target == last.target and a.kind in ("suspect", "liar", "divined", "medium") for a in told[:-1])
    return True


def realise(
    acts: Sequence[SpeechAct],
    *,
    names: Sequence[str],
    persona: Persona,
    day: int,
    rng: random.Random,
    count: int = CANDIDATES,
    limit: int = 0,
    morning: Morning | None = None,
) -> list[str]:
    """Up to `count` distinct wordings of `acts`, in the manner of `persona` (unchecked; see `check_wording`).

    Each candidate words every act in order; a persona's verbosity decides how much is said around
    them: `terse` nothing, `plain` sometimes an opener or a habit's closing line, `chatty` both and
    an aside. A repeated act (`again`) is announced as such. With a `limit` (characters, spaces not
    counted), a candidate longer than it loses what is said around the acts, and is left out if
    its acts alone are still too long; once that has happened twice, the acts are worded shortly
    (see `_sentence`), so that a turn whose template words barely fit still gets wordings.
    With a `morning` (public talk), a seat's first turn of a day may open with the night's news
    (`_MOURNING`, `_QUIET`: a terse seat now and then, a chatty one nearly always), and on a day
    that began with a death nothing bright is said around the acts ("Great morning sunshine!").
    """
    if not acts:
        return []
    out: dict[str, None] = {}
    chatty = persona.verbosity == "chatty"
    plain = persona.verbosity == "plain"
    sad = morning is not None and bool(morning.dead)
    too_long = 0
    hostile = {
        a.target
        for a in acts
        if a.target is not None
        and (
            a.kind in ("liar", "suspect", "vote", "agree")
            or (a.kind in ("divined", "medium") and a.species is Species.WEREWOLF)
        )
    }
    for _ in range(count * 3):
        short = limit > 0 and too_long >= 2  # the acts alone did not fit twice: word them shortly
        parts: list[str] = []
        opener = chatty or (plain and rng.random() < 0.5)
        whisper = any(a.kind in ("attack", "plan") for a in acts)
        news = (
            morning is not None
            and morning.first
            and (morning.dead or morning.peaceful)
            and rng.random() < _NEWS_CHANCE[persona.verbosity]
        )
        if news and not whisper and acts[0].kind != "greet":
            assert morning is not None
            parts.append(_news(morning, names, persona.temperament, rng))
        elif opener and not whisper and acts[0].kind != "greet":
            line = (
                _unbright(_OPENERS[persona.temperament], rng)
                if sad
                else _expand(rng.choice(_OPENERS[persona.temperament]), rng)
            )
            if line:
                parts.append(line)
        used: set[str] = set()
        flagged = rng.random() < 0.8
        said: list[str] = []
        for a in acts:
            sentence = _sentence(a, names, day, rng, used, persona.temperament, short=short)
            # no friendship offered to a seat the same turn goes after ("Ember I'm not against you. ...
            # Ember lied when they claimed seer.")
            cold = a.kind == "answer" and a.to is not None and a.to in hostile
            # a wording that says no three words running of what the turn said before ("Ken is the one
            # I doubt most. Ken is the one I'm voting for."), and, on a sad morning, nothing bright
            for _ in range(6):
                if (
                    not (sad and _BRIGHT.search(sentence))
                    and not (cold and _FRIENDLY.search(sentence))
                    and not _repeats(sentence, [*parts, *said])
                ):
                    break
                sentence = _sentence(a, names, day, rng, used, persona.temperament, short=short)
            if cold and _FRIENDLY.search(sentence):
                sentence = a.template(tuple(names), day)  # "Ken I am on the village side."
            if parts or said:  # "Yeah." answers only as a turn's first word ("Hear me out. Yeah. Ken is right")
                sentence = _ANSWER_WORD.sub("", sentence)
                sentence = sentence[:1].upper() + sentence[1:]
            reply = a.to is not None and a.kind in OPINIONS  # a reply has its lead
            if a.again and flagged and not short and not reply:
                leads = (*_AGAIN, *_AGAIN_OPINION) if a.kind in OPINIONS else _AGAIN
                sentence = _again(rng.choice(leads), sentence, names)
                flagged = False
            said.append(sentence)
        after: list[str] = []
        if chatty and not whisper and rng.random() < 0.6:
            asides = [a for a in _ASIDES[persona.temperament] if _said_in_time(a, day)]
            # never the opener again in other words ("Please trust that I mean well. ... Please believe I mean well.")
            for _ in range(4):
                aside = _unbright(asides, rng) if sad else _expand(rng.choice(asides), rng)
                if aside and not _repeats(aside, [*parts, *said]):
                    after.append(aside)
                    break
        groups = [g for h in persona.habits for g in _HABIT_CLOSERS.get(h, (h,)) if g in _CLOSERS and _closes(g, acts)]
        if groups and not whisper and (chatty or (plain and rng.random() < 0.5)):
            for _ in range(4):
                closer = _expand(rng.choice(_CLOSERS[rng.choice(groups)]), rng)
                if not _repeats(closer, [*parts, *said, *after]):
                    after.append(closer)
                    break
        if after and acts[-1].kind == "question":  # a question ends the turn: the other player answers next
            parts += [*said[:-1], *after, said[-1]]
        else:
            parts += [*said, *after]
        text = " ".join(parts)
        if limit > 0 and spoken_length(text) > limit:
            text = " ".join(said)  # the acts matter; what is said around them does not
            if spoken_length(text) > limit:
                too_long += 1
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
    dead: Iterable[int] = (),
) -> str:
    """Why `text` may not be spoken for the acts whose template words are `template` ("" when it may).

    The facts must be the template's: the talk reader reads the same statements from both; the
    names of the template and no other (the names a reason cites are part of the act; the seats
    found `dead` this morning, which the day's news may name), no role word the template lacks;
    within the talk limit; none of the voice faults (`wolf_public`: a werewolf-side seat in public talk).
    """
    if limit > 0 and spoken_length(text) > limit:
        return "too long"
    fault = voice_fault(text, names[seat], "", wolf_public=wolf_public)
    if fault:
        return fault
    reader = reader_for(names)
    if set(reader.parse(text, seat)) != set(reader.parse(template, seat)):
        return "contradicts the act"
    named = names_in(template, names)
    mourned = set(dead) - named
    if names_in(text, names) - mourned != named:
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


__all__ = [
    "CANDIDATES",
    "Candidate",
    "Heard",
    "Morning",
    "check_wording",
    "choose",
    "expansions",
    "morning_of",
    "realise",
]
