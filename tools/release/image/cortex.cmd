@echo off
rem Starts cortex from this self-contained runtime image on Windows: its own Java runtime, no JDK
rem needed. CORTEX_JAVA_OPTS adds JVM options to those of lib\cortex\jvm-options (and leaves the
rem ahead-of-time cache out); CORTEX_AOT=0 turns the cache off.
setlocal
set "_cortex_image=%~dp0.."
set "CORTEX_LAUNCHER=%~f0"
rem The JVM options, from the copy of bin/jvm-options that release/build made for this image: the
rem short-lived profile the cache was trained with and, when the image's Java has it (23+), the
rem flag that lets the Temporal runtime's libraries use sun.misc.Unsafe without a warning.
set _cortex_opts=
set _cortex_java23=
if not exist "%_cortex_image%\lib\cortex\jvm-options" goto nooptions
for /f "usebackq eol=# tokens=1,* delims==" %%a in ("%_cortex_image%\lib\cortex\jvm-options") do (
  if "%%a"=="short-lived" set "_cortex_opts=%%b"
  if "%%a"=="from-java-23" set "_cortex_java23=%%b"
)
if not defined _cortex_opts goto nooptions
if defined _cortex_java23 set "_cortex_opts=%_cortex_opts% %_cortex_java23%"
if defined CORTEX_JAVA_OPTS goto plain
if "%CORTEX_AOT%"=="0" goto plain
if not exist "%_cortex_image%\lib\cortex\cortex.aot" goto plain
"%_cortex_image%\bin\java.exe" %_cortex_opts% "-XX:AOTCache=%_cortex_image%\lib\cortex\cortex.aot" -jar "%_cortex_image%\lib\cortex\cortex.jar" %*
exit /b %ERRORLEVEL%
:plain
"%_cortex_image%\bin\java.exe" %_cortex_opts% %CORTEX_JAVA_OPTS% -jar "%_cortex_image%\lib\cortex\cortex.jar" %*
exit /b %ERRORLEVEL%
:nooptions
echo cortex: %_cortex_image%\lib\cortex\jvm-options is missing or has no line short-lived=: unpack the runtime image again 1>&2
exit /b 2
